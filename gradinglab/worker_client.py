"""The one boundary between a grading worker and the web app: HTTP calls to the worker API.

Django-free (workers hold no database credentials). Configuration comes from the environment:
PDC_API_URL (web app base URL), PDC_WORKER_TOKEN (worker credential), PDC_WORKER_KIND, and
PDC_WORKER_NAME. In development, when PDC_WORKER_TOKEN is unset, the credential that
`manage.py ensure_local_worker` wrote to var/local-worker.json is used.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

HTTP_TIMEOUT_S = 30  # seconds per request; the web side answers in milliseconds when healthy
RESULT_POST_TRIES = (
    5  # a result is worth retrying: the grading work behind it took seconds to minutes
)
RETRY_BASE_DELAY_S = 1.0  # seconds, doubled per try (1, 2, 4, 8)
LOCAL_CREDENTIAL = "local-worker.json"


class WorkerApiError(RuntimeError):
    """The web app refused a call (4xx) or stayed unreachable after the retries."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class WorkerConfig:
    api_url: str
    token: str
    kind: str
    name: str


def _var_dir() -> Path:
    return Path(os.environ.get("PDC_VAR_DIR") or Path(__file__).resolve().parent.parent / "var")


def _base_url(url: str) -> str:
    """The site root; PDC_API_URL may be given with or without the /api/v1/ suffix."""
    url = url.strip().rstrip("/")
    return url[: -len("/api/v1")] if url.endswith("/api/v1") else url


def config_from_env() -> WorkerConfig:
    token = os.environ.get("PDC_WORKER_TOKEN", "").strip()
    api_url = os.environ.get("PDC_API_URL", "").strip()
    kind = os.environ.get("PDC_WORKER_KIND", "").strip()
    local = _var_dir() / LOCAL_CREDENTIAL
    if not token and local.exists():
        saved = json.loads(local.read_text(encoding="utf-8"))
        token, api_url = saved["token"], api_url or saved.get("api_url", "")
        kind = kind or saved.get("kind", "cpu")
    if not token:
        raise WorkerApiError(
            "PDC_WORKER_TOKEN is not set (create one with `manage.py worker_token create`)"
        )
    name = (
        os.environ.get("PDC_WORKER_NAME", "").strip() or f"{kind or 'cpu'}@{socket.gethostname()}"
    )
    return WorkerConfig(
        api_url=_base_url(api_url or "http://127.0.0.1:8000"),
        token=token,
        kind=kind or "cpu",
        name=name,
    )


class WorkerClient:
    def __init__(self, config: WorkerConfig) -> None:
        self.config = config

    def _post(self, path: str, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            f"{self.config.api_url}/api/v1/{path}",
            data=json.dumps(body).encode(),
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
        """Best effort: a lost phase report only delays the live display."""
        try:
            self._post("worker/phase", {"job_token": job_token, "phase": phase})
        except WorkerApiError as exc:
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
