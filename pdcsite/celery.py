"""The Celery app. Queues: `default` (web-side housekeeping), `grade-cpu`, `grade-gpu-<kind>`."""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery
from kombu import Queue

from gradinglab.worker.tasks import register

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pdcsite.settings")

app = Celery("pdcsite")
app.config_from_object("django.conf:settings", namespace="CELERY")


def _configure_queues() -> None:
    from django.conf import settings

    app.conf.task_queues = [Queue(name) for name in settings.CELERY_TASK_QUEUES_NAMES]
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)


_configure_queues()
register(app)  # the grade task and heartbeats: this app is `make run`'s grading worker too
app.autodiscover_tasks()
