"""The grading task body, shared by the Django-side Celery app and the Django-free worker app.

A job message carries only what the worker needs: submission id, problem slug, backend, source and
a job token. The worker grades, reports phases and posts the result document over HTTP; it never
touches the database, so both apps take the same path.
"""

from __future__ import annotations

import logging
import platform
import threading
from typing import Any

from gradinglab.worker_client import WorkerClient, WorkerConfig, config_from_env

log = logging.getLogger(__name__)

GRADE_TASK = "gradinglab.grade_submission"
PAYLOAD_FIELDS = {
    "submission_id": int,
    "job_token": str,
    "slug": str,
    "backend": str,
    "source": str,
}
HEARTBEAT_INTERVAL_S = 20  # seconds; the web side shows a worker online for 3 intervals


class BadJob(ValueError):
    """A message that is not a job (never retried: running it again cannot help)."""


def check_payload(payload: Any) -> dict[str, Any]:
    if not isinstance(payload, dict) or set(payload) != set(PAYLOAD_FIELDS):
        raise BadJob(f"job message must have exactly the fields {sorted(PAYLOAD_FIELDS)}")
    for key, kind in PAYLOAD_FIELDS.items():
        if not isinstance(payload[key], kind):
            raise BadJob(f"job field {key!r} must be {kind.__name__}")
    return payload


def _failure_document(slug: str, backend: str, message: str) -> dict[str, Any]:
    from gradinglab.runner.result import finish, new_document

    doc = new_document(slug=slug, backend=backend, path="cpu")
    return finish(doc, status="infrastructure_error", message=message)


def execute(payload: Any, *, client: WorkerClient | None = None) -> str:
    """Grade one job and post its result. Returns the status the runner gave."""
    from gradinglab.runner import ProblemNotFound, grade

    job = check_payload(payload)
    client = client or WorkerClient(config_from_env())
    token = job["job_token"]
    try:
        doc = grade(
            slug=job["slug"],
            source=job["source"],
            backend=job["backend"],
            on_phase=lambda phase: client.phase(token, phase),
        )
    except (ProblemNotFound, ValueError) as exc:  # the web side sent a job this host cannot run
        doc = _failure_document(job["slug"], job["backend"], f"cannot grade here: {exc}")
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
