"""Celery app for grading hosts (GPU or CPU) that never imports Django and holds no DB credentials.

    celery -A gradinglab.worker worker -Q grade-gpu-h100 --pool prefork --concurrency 1

Environment: CELERY_BROKER_URL, PDC_API_URL, PDC_WORKER_TOKEN, PDC_WORKER_KIND (cpu or a GPU kind),
optional PDC_WORKER_NAME, CELERY_VISIBILITY_TIMEOUT (seconds, how long an unacknowledged job waits
before Redis hands it to another worker) and PDC_BROKER_KEYPREFIX.
"""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, signals
from kombu import Queue

from gradinglab import jobs
from gradinglab.queues import queue_for

VISIBILITY_TIMEOUT_S = 3600  # seconds; must exceed the longest grading job (task time limit 660 s)
SOFT_TIME_LIMIT_S = 600  # seconds; same outer guard as the web side's settings
TIME_LIMIT_S = 660


def _transport_options() -> dict[str, Any]:
    options: dict[str, Any] = {
        "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", VISIBILITY_TIMEOUT_S))
    }
    # Test runs share one Redis; the web side prefixes keys with the run id (see pdcsite.settings).
    prefix = os.environ.get("PDC_BROKER_KEYPREFIX")
    if (
        prefix is None
        and os.environ.get("DJANGO_ENV") == "test"
        and os.environ.get("PDC_TEST_RUN_ID")
    ):
        prefix = f"{os.environ['PDC_TEST_RUN_ID']}:"
    if prefix:
        options["global_keyprefix"] = prefix
    return options


def _queues() -> list[Queue]:
    kind = os.environ.get("PDC_WORKER_KIND", "cpu").strip() or "cpu"
    return [Queue(queue_for(kind))]


app = Celery(
    "gradinglab_worker", broker=os.environ.get("CELERY_BROKER_URL", "redis://127.0.0.1:6379/0")
)
app.conf.update(
    broker_transport_options=_transport_options(),
    task_queues=_queues(),
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_ignore_result=True,
    result_backend=None,
    task_soft_time_limit=SOFT_TIME_LIMIT_S,
    task_time_limit=TIME_LIMIT_S,
    broker_connection_retry_on_startup=True,
)


@app.task(name=jobs.GRADE_TASK, acks_late=True, reject_on_worker_lost=True)
def grade_submission(payload: dict[str, Any]) -> str:
    return jobs.execute(payload)


@signals.worker_ready.connect
def _start_heartbeat(**_: Any) -> None:
    jobs.start_heartbeat()
