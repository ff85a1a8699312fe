"""Structured logs: one JSON object per line, carrying the request id and the submission id.

- ``RequestIdMiddleware`` gives every request an id (the proxy's ``X-Request-ID`` when it is a sane
  token, else a fresh one), answers it in ``X-Request-ID`` and keeps it in a context variable for
  every log line written while the request runs.
- ``tag_submission(id)`` tags the rest of a request's log lines with the submission it works on
  (the worker API, once the job token is resolved); ``log_context(submission_id=…)`` does it for
  a block (the reaper's loop), ``extra={"submission_id": …}`` for one line.
- ``JsonFormatter`` writes the line; ``LOG_FORMAT=json`` (the production default) selects it.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime

from django.http import HttpRequest, HttpResponse

_request_id: contextvars.ContextVar[str | None] = contextvars.ContextVar("request_id", default=None)
_submission_id: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "submission_id", default=None
)
_SANE_ID = re.compile(r"^[A-Za-z0-9._-]{8,64}$")  # a proxy's id is kept only if it is this shape


def request_id_for(meta: dict) -> str:
    """The proxy's ``X-Request-ID`` when it is a sane token, else a fresh one (also the fast path's)."""
    given = meta.get("HTTP_X_REQUEST_ID", "")
    return given if _SANE_ID.match(given) else uuid.uuid4().hex


class RequestIdMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request_id = request_id_for(request.META)
        request.request_id = request_id  # type: ignore[attr-defined]
        token, tagged = _request_id.set(request_id), _submission_id.set(None)
        try:
            response = self.get_response(request)
        finally:
            _request_id.reset(token)
            _submission_id.reset(tagged)
        response["X-Request-ID"] = request_id
        return response


def tag_submission(submission_id: int) -> None:
    """Tag the rest of this request's (or task's) log lines with the submission it works on."""
    _submission_id.set(submission_id)


@contextmanager
def log_context(*, submission_id: int | None) -> Iterator[None]:
    token = _submission_id.set(submission_id)
    try:
        yield
    finally:
        _submission_id.reset(token)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        line = {
            "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "msg": record.getMessage(),
            "request_id": getattr(record, "request_id", None) or _request_id.get(),
            "submission_id": getattr(record, "submission_id", None) or _submission_id.get(),
        }
        if record.exc_info:
            line["exc"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, default=str)
