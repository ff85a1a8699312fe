"""`python -m gradinglab.worker ARGS` is `celery -A gradinglab.worker ARGS`, for hosts where the
`celery` script is not on PATH: `python -m gradinglab.worker worker -Q grade-cpu --concurrency 1`."""

from __future__ import annotations

import sys

from gradinglab.worker.celery import app

if __name__ == "__main__":
    sys.exit(app.start(sys.argv[1:]) or 0)
