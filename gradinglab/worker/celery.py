"""The Celery app of a grading host (GPU or CPU): never imports Django, holds no DB credentials.

    celery -A gradinglab.worker worker -Q grade-gpu-h100 --pool prefork --concurrency 1

Its environment is read by gradinglab.worker.config (the variables are listed there).
"""

from __future__ import annotations

from typing import Any

from celery import Celery
from kombu import Queue

from gradinglab.worker import config
from gradinglab.worker.queues import queue_for
from gradinglab.worker.tasks import register


def _transport_options() -> dict[str, Any]:
    options: dict[str, Any] = {"visibility_timeout": config.visibility_timeout_s()}
    if prefix := config.broker_keyprefix():
        options["global_keyprefix"] = prefix
    return options


_SOFT_TIME_LIMIT_S, _TIME_LIMIT_S = config.task_time_limits_s()

app = Celery("gradinglab_worker", broker=config.broker_url())
app.conf.update(
    broker_transport_options=_transport_options(),
    task_queues=[Queue(queue_for(config.worker_kind()))],
    task_acks_late=True,
    task_reject_on_worker_lost=True,
    worker_prefetch_multiplier=1,
    task_ignore_result=True,
    result_backend=None,
    task_soft_time_limit=_SOFT_TIME_LIMIT_S,
    task_time_limit=_TIME_LIMIT_S,
    broker_connection_retry_on_startup=True,
)
register(app)
