"""The grading host's configuration, read from the environment through the project's strict
parsers (``pdcenv``, Django-free); a bad value stops the worker with a message naming the variable.

The broker settings that the web side shares (visibility timeout, task time limits, the test run's
key prefix) are read here once for both: ``pdcsite.settings`` calls the same functions.

Environment (all optional but the token, which may come from the development file instead):

- ``CELERY_BROKER_URL``: the broker (default redis://127.0.0.1:6379/0);
- ``PDC_API_URL``: the web app's base URL, with or without /api/v1/ (default http://127.0.0.1:8000);
- ``PDC_WORKER_TOKEN``: the worker credential (``manage.py worker_token create``); unset, the file
  that ``manage.py ensure_local_worker`` wrote to var/local-worker.json is used (development);
- ``PDC_WORKER_KIND``: ``cpu`` or a GPU kind (h200 ...): the queue this worker consumes;
- ``PDC_WORKER_NAME``: shown on the workers page (default <kind>@<hostname>);
- ``CELERY_VISIBILITY_TIMEOUT``: seconds an unacknowledged job waits before Redis hands it to
  another worker; ``CELERY_TASK_SOFT_TIME_LIMIT`` / ``CELERY_TASK_TIME_LIMIT``: seconds;
- ``PDC_BROKER_KEYPREFIX``: a key prefix for the broker's Redis keys (test runs share one Redis).
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

import pdcenv
from gradinglab.worker.queues import CPU_KIND, check_kind

LOCAL_CREDENTIAL = "local-worker.json"
DEFAULT_BROKER_URL = "redis://127.0.0.1:6379/0"
DEFAULT_API_URL = "http://127.0.0.1:8000"
HEARTBEAT_INTERVAL_S = (
    20  # seconds between heartbeats (gradinglab.conf.WORKER_ONLINE_S counts them)
)


class ConfigError(pdcenv.EnvError):
    """The worker cannot start: no credential, or a variable set to a value it refuses."""


@dataclass(frozen=True)
class WorkerConfig:
    api_url: str
    token: str
    kind: str
    name: str


def visibility_timeout_s() -> int:
    # Seconds; in production it must exceed the longest grading job (the task time limit), or
    # Redis hands a job that is still running to a second worker. One hour by default; at least
    # 1 s, because the kill -9 test sets 2 s so that redelivery after each kill is quick.
    return pdcenv.env_int("CELERY_VISIBILITY_TIMEOUT", 3600, minimum=1)


def task_time_limits_s() -> tuple[int, int]:
    """(soft, hard) seconds: the outer guard around one grading job (the sandbox has its own)."""
    soft = pdcenv.env_int("CELERY_TASK_SOFT_TIME_LIMIT", 600, minimum=10)
    hard = pdcenv.env_int("CELERY_TASK_TIME_LIMIT", 660, minimum=15)
    if hard <= soft:
        raise pdcenv.EnvError(
            "CELERY_TASK_TIME_LIMIT must be greater than CELERY_TASK_SOFT_TIME_LIMIT"
        )
    return soft, hard


def test_run_keyprefix() -> str:
    """Test runs share one Redis: each prefixes its broker keys with its run id (or "" outside)."""
    if os.environ.get("DJANGO_ENV") == "test" and os.environ.get("PDC_TEST_RUN_ID"):
        return f"{os.environ['PDC_TEST_RUN_ID']}:"
    return ""


def broker_url() -> str:
    return pdcenv.env_broker_url("CELERY_BROKER_URL", DEFAULT_BROKER_URL)


def broker_keyprefix() -> str:
    return pdcenv.env_str("PDC_BROKER_KEYPREFIX", "") or test_run_keyprefix()


def worker_kind() -> str:
    kind = pdcenv.env_str("PDC_WORKER_KIND", CPU_KIND)
    try:
        return check_kind(kind)
    except ValueError as exc:
        raise ConfigError(f"PDC_WORKER_KIND={kind!r}: {exc}") from None


def _var_dir() -> Path:
    return Path(os.environ.get("PDC_VAR_DIR") or Path(__file__).resolve().parents[2] / "var")


def _base_url(url: str) -> str:
    """The site root; PDC_API_URL may be given with or without the /api/v1/ suffix."""
    url = url.strip().rstrip("/")
    return url[: -len("/api/v1")] if url.endswith("/api/v1") else url


def config_from_env() -> WorkerConfig:
    # A compose file passes an unset secret as "": the token alone treats empty as unset.
    token = os.environ.get("PDC_WORKER_TOKEN", "").strip()
    api_url = pdcenv.env_url("PDC_API_URL", "") if os.environ.get("PDC_API_URL") else ""
    kind = worker_kind() if "PDC_WORKER_KIND" in os.environ else ""
    local = _var_dir() / LOCAL_CREDENTIAL
    if not token and local.exists():
        saved = json.loads(local.read_text(encoding="utf-8"))
        token, api_url = saved["token"], api_url or saved.get("api_url", "")
        kind = kind or saved.get("kind", CPU_KIND)
    if not token:
        raise ConfigError(
            "PDC_WORKER_TOKEN is not set (create one with `manage.py worker_token create`)"
        )
    kind = kind or CPU_KIND
    name = pdcenv.env_str("PDC_WORKER_NAME", f"{kind}@{socket.gethostname()}")
    return WorkerConfig(
        api_url=_base_url(api_url or DEFAULT_API_URL), token=token, kind=kind, name=name
    )
