"""Shared helpers for the lab's web-side tests (imported explicitly; not a conftest, so the runner's
tests in this folder are untouched). Result documents in data/ were produced by the real runner on
the vector-add solutions; test_result_fixtures checks they still match the current schema."""

from __future__ import annotations

import copy
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).with_name("data")
SOLUTIONS = Path(__file__).resolve().parents[1] / "problems" / "vector-add" / "solutions"


def load_doc(name: str) -> dict[str, Any]:
    return copy.deepcopy(json.loads((DATA / f"vector_add_{name}.json").read_text(encoding="utf-8")))


def correct_source() -> str:
    return (SOLUTIONS / "triton" / "correct.py").read_text(encoding="utf-8")


def make_assignment(**fields: Any):
    from gradinglab.models import Assignment, Problem
    from gradinglab.services import problems_sync

    if not Problem.objects.filter(slug="vector-add").exists():
        problems_sync()
    defaults: dict[str, Any] = {"points": Decimal("10"), "published": True}
    defaults.update(fields)
    return Assignment.objects.create(problem=Problem.objects.get(slug="vector-add"), **defaults)


@pytest.fixture
def assignment(db):
    return make_assignment()


@pytest.fixture
def worker_token(db) -> str:
    from gradinglab.services import worker_token_create

    return worker_token_create(name="cpu-test", kind="cpu")


def worker_headers(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Worker {token}"}


def take_jobs(queue: str = "grade-cpu", expect: int = 1, timeout_s: float = 10.0) -> list[dict]:
    """Pop job messages from the real broker (the test Redis, this run's key prefix), as a worker would."""
    import time

    from pdcsite.celery import app

    payloads: list[dict] = []
    deadline = (
        time.monotonic() + timeout_s
    )  # seconds; messages are in Redis before on_commit returns
    with app.connection_for_read() as conn:
        simple = conn.SimpleQueue(queue)
        while len(payloads) < expect and time.monotonic() < deadline:
            try:
                message = simple.get(timeout=1)
            except simple.Empty:
                continue
            _args, kwargs, _embed = message.decode()
            message.ack()
            payloads.append(kwargs["payload"])
        simple.close()
    return payloads


def purge(queue: str = "grade-cpu") -> None:
    from pdcsite.celery import app

    with app.connection_for_write() as conn:
        conn.SimpleQueue(queue).clear()


def submit(client, slug: str = "vector-add", source: str | None = None, backend: str = "triton"):
    return client.post(
        "/api/v1/submissions",
        data=json.dumps(
            {"problem": slug, "backend": backend, "source": source or correct_source()}
        ),
        content_type="application/json",
    )


def post_result(client, token: str, job_token: str, document: Any):
    return client.post(
        "/api/v1/worker/result",
        data=json.dumps({"job_token": job_token, "document": document}),
        content_type="application/json",
        **worker_headers(token),
    )
