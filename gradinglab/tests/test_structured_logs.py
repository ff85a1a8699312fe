"""Structured logs (pdcsite/logs.py, docs/operations.md): JSON lines that carry the request id (answered in
X-Request-ID) and the id of the submission the line is about."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator

import pytest

from gradinglab.tests.labkit import load_doc, post_result, purge, submit, take_jobs
from pdcsite.logs import JsonFormatter

pytestmark = pytest.mark.django_db


@pytest.fixture
def json_lines() -> Iterator[io.StringIO]:
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(JsonFormatter())
    logger = logging.getLogger("gradinglab")
    logger.addHandler(handler)
    old_level, logger.level = logger.level, logging.INFO
    yield out
    logger.removeHandler(handler)
    logger.setLevel(old_level)


def _lines(out: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_lines_carry_request_and_submission_ids(
    client, client_a, assignment, worker_token, json_lines, django_capture_on_commit_callbacks
) -> None:
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        created = submit(client_a)
    [job] = take_jobs()
    stored = post_result(client, worker_token, job["job_token"], load_doc("accepted"))
    assert created.status_code == 201 and stored.status_code == 201
    lines = _lines(json_lines)
    queued = next(line for line in lines if line["msg"].startswith("submission queued"))
    result = next(line for line in lines if line["msg"].startswith("result stored"))
    assert queued["submission_id"] == result["submission_id"] == job["submission_id"]
    assert queued["request_id"] == created["X-Request-ID"]
    assert result["request_id"] == stored["X-Request-ID"] != queued["request_id"]
    assert {"ts", "level", "logger"} <= set(result)


def test_a_sane_proxy_request_id_is_kept_and_a_hostile_one_replaced(client) -> None:
    assert client.get("/healthz", HTTP_X_REQUEST_ID="req-0123456789")["X-Request-ID"] == (
        "req-0123456789"
    )
    hostile = client.get("/healthz", HTTP_X_REQUEST_ID='x"\n{"level":"forged"}')
    assert len(hostile["X-Request-ID"]) == 32 and "forged" not in hostile["X-Request-ID"]
