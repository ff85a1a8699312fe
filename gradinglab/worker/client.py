"""The one boundary between a grading worker and the web app: HTTP calls to the worker API.

Django-free (workers hold no database credentials). Where to call and with which credential comes
from ``gradinglab.worker.config``.
"""

from __future__ import annotations

import json
import logging
import time
import urllib.error
import urllib.request
from typing import Any

from gradinglab.runner.result import wire_bytes
from gradinglab.worker.config import WorkerConfig

log = logging.getLogger(__name__)

HTTP_TIMEOUT_S = 30  # seconds per request; the web side answers in milliseconds when healthy
# A result is worth retrying: the grading work behind it took seconds to minutes.
RESULT_POST_TRIES = 5
RETRY_BASE_DELAY_S = 1.0  # seconds, doubled per try (1, 2, 4, 8)


class WorkerApiError(RuntimeError):
    """The web app refused a call (4xx) or stayed unreachable after the retries."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


class JobRefused(WorkerApiError):
    """HTTP 403 on a job's phase: the web side takes no report of this job from this worker (a job
    of another queue kind), so grading it on is wasted."""


class WorkerClient:
    def __init__(self, config: WorkerConfig) -> None:
        self.config = config

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.config.api_url}/api/v1/{path}",
            data=wire_bytes(body),  # the form the runner bounds a result document in
            method="POST",
            headers={
                "Content-Type": "application/json",
                "Authorization": f"Worker {self.config.token}",
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT_S) as response:
                return json.loads(response.read() or b"{}")
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:500].decode("utf-8", "replace")
            raise WorkerApiError(f"{path}: HTTP {exc.code}: {detail}", exc.code) from exc
        except (urllib.error.URLError, OSError) as exc:
            raise WorkerApiError(f"{path}: {exc}") from exc

    def phase(self, job_token: str, phase: str) -> None:
        """Best effort: a lost phase report only delays the live display. A 403 is no loss but the
        web side's final word on the job (raised as JobRefused): its result would be refused too."""
        try:
            self._post("worker/phase", {"job_token": job_token, "phase": phase})
        except WorkerApiError as exc:
            if exc.status == 403:
                raise JobRefused(str(exc), exc.status) from exc
            log.warning("phase report failed: %s", exc)

    def result(self, job_token: str, document: dict[str, Any]) -> dict[str, Any]:
        """Post a result; retries transport errors and 5xx, never a 4xx (the web side said no)."""
        for attempt in range(RESULT_POST_TRIES):
            try:
                return self._post("worker/result", {"job_token": job_token, "document": document})
            except WorkerApiError as exc:
                if exc.status is not None and exc.status < 500:
                    raise
                if attempt == RESULT_POST_TRIES - 1:
                    raise
                log.warning("result post failed (try %d): %s", attempt + 1, exc)
                time.sleep(RETRY_BASE_DELAY_S * 2**attempt)
        raise AssertionError("unreachable")

    def heartbeat(self, info: dict[str, Any]) -> None:
        try:
            self._post("workers/heartbeat", {"name": self.config.name, "info": info})
        except WorkerApiError as exc:
            log.warning("heartbeat failed: %s", exc)
