"""What a grading host does: grade one job and post its result, and send heartbeats.

`register(app)` puts the grade task and the heartbeat hook on a Celery app: the Django-free
worker app (gradinglab.worker.celery) and the web side's app (pdcsite.celery, which `make run`
uses as its CPU worker) both call it, so both take the same path: the worker never touches the
database, it posts results over HTTP (gradinglab.worker.client).
"""

from __future__ import annotations

import logging
import platform
import threading
from typing import Any

from celery import Celery, signals

from gradinglab.worker.client import JobRefused, WorkerClient
from gradinglab.worker.config import HEARTBEAT_INTERVAL_S, WorkerConfig, config_from_env
from gradinglab.worker.jobs import GRADE_TASK, check_payload

log = logging.getLogger(__name__)


def _failure_document(slug: str, backend: str, message: str) -> dict[str, Any]:
    from gradinglab.runner.result import finish, new_document

    doc = new_document(slug=slug, backend=backend, path="cpu")
    return finish(doc, status="infrastructure_error", message=message)


REFUSED = "refused"  # execute's return when the web side refused this worker's phase report


def execute(payload: Any, *, client: WorkerClient | None = None) -> str:
    """Grade one job and post its result. Returns the status the runner gave, or REFUSED: the web
    side refused a phase report with 403 (a job of another kind's queue), so the grading stopped
    there and nothing is posted; the task ends normally (acknowledged, not re-run)."""
    from gradinglab.runner import ProblemNotFound, grade

    job = check_payload(payload)
    client = client or WorkerClient(config_from_env())
    token = job["job_token"]
    refused: list[JobRefused] = []

    def report_phase(phase: str) -> None:
        try:
            client.phase(token, phase)
        except JobRefused as exc:
            refused.append(exc)
            raise  # out through the grader, which ends the sandbox run; its document is dropped

    try:
        doc = grade(
            slug=job["slug"], source=job["source"], backend=job["backend"], on_phase=report_phase
        )
    except (ProblemNotFound, ValueError) as exc:  # the web side sent a job this host cannot run
        doc = _failure_document(job["slug"], job["backend"], f"cannot grade here: {exc}")
    if refused:
        log.error("submission %s not graded here: %s", job["submission_id"], refused[0])
        return REFUSED
    client.result(token, doc)
    log.info("submission %s graded: %s", job["submission_id"], doc["status"])
    return doc["status"]


def worker_info(config: WorkerConfig) -> dict[str, Any]:
    info: dict[str, Any] = {"kind": config.kind, "python": platform.python_version()}
    try:
        import torch

        if torch.cuda.is_available():
            info["gpu"] = torch.cuda.get_device_name(0)
    except Exception:
        pass
    return info


def start_heartbeat(stop: threading.Event | None = None) -> threading.Thread | None:
    """Background heartbeats from the worker's main process (daemon thread)."""
    try:
        client = WorkerClient(config_from_env())
    except Exception as exc:
        log.warning("no heartbeats: %s", exc)
        return None
    stop = stop or threading.Event()
    info = worker_info(client.config)

    def beat() -> None:
        while not stop.is_set():
            client.heartbeat(info)
            stop.wait(HEARTBEAT_INTERVAL_S)

    thread = threading.Thread(target=beat, name="pdc-heartbeat", daemon=True)
    thread.start()
    return thread


def _start_heartbeat(**_: Any) -> None:
    start_heartbeat()


def register(app: Celery) -> None:
    """The grade task on `app`, and heartbeats once its worker is ready (one thread a process)."""

    @app.task(name=GRADE_TASK, acks_late=True, reject_on_worker_lost=True)
    def grade_submission(payload: dict[str, Any]) -> str:
        return execute(payload)

    # worker_ready is process-wide; the uid keeps it one hook even if two apps register.
    signals.worker_ready.connect(_start_heartbeat, weak=False, dispatch_uid="pdc-heartbeat")
