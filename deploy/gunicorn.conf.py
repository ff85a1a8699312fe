"""Gunicorn settings of the web service (Dockerfile, docker-compose.yml): `gunicorn -c` this file.

Workers: one sync worker per CPU this process may run on, unless PDC_WEB_WORKERS says otherwise.
bench/deadline_burst.py on 2 cores: 4 workers gave a p95 of 327 ms, 2 gave 100 ms (same run of
the benchmark, docs/benchmarks.md): more sync workers than cores only share the cores, so every
request in a burst takes longer.
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from pdcenv import env_int  # Django-free strict parser, as the worker uses

bind = "0.0.0.0:8000"
workers = env_int("PDC_WEB_WORKERS", len(os.sched_getaffinity(0)), minimum=1, maximum=64)
accesslog = "-"
