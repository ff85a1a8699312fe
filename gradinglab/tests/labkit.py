"""Shared helpers for the lab's web-side tests (imported explicitly; not a conftest, so the runner's
tests in this folder are untouched). Result documents in data/ were produced by the real runner on
the vector-add solutions; test_result_fixtures checks they still match the current schema."""

from __future__ import annotations

import copy
import json
from datetime import datetime
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


def correct_cuda_source() -> str:
    return (SOLUTIONS / "cuda" / "correct.cu").read_text(encoding="utf-8")


def slow_correct_source(pause_s: int = 2) -> str:
    """Correct, with a pause per test (seconds) so a test can watch or interrupt the testing phase."""
    return correct_source().replace(
        "    n = out.numel()\n",
        f"    import time\n\n    time.sleep({pause_s})\n    n = out.numel()\n",
    )


def scored_submission(assignment, student, score: str, at: datetime):
    """An accepted submission scoring ``score``, made at ``at``, posted to the gradebook."""
    from gradinglab.models import Submission
    from gradinglab.services.results import assignment_grade_sync

    sub = Submission.objects.create(
        assignment=assignment, student=student, backend="triton", source=score,
        sha256=score.ljust(64, "0"), created_at=at, status="accepted", score=Decimal(score),
    )  # fmt: skip
    assignment_grade_sync(assignment=assignment, student=student)
    return sub


def make_assignment(**fields: Any):
    from gradinglab.models import Assignment, Problem
    from gradinglab.services.problem_sync import problems_sync

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
    from gradinglab.services.workers import worker_token_create

    return worker_token_create(name="cpu-test", kind="cpu")


H100_DEVICE = "NVIDIA H100 80GB HBM3"  # the SXM part: 3350 GB/s in runner/devices.py
VECTOR_ADD_BYTES = 3 * 16777216 * 4  # the `large` benchmark's cost.bytes (3 * n * elem)


@pytest.fixture
def gpu_worker_token(db) -> str:
    """An h100 worker credential with its device recorded (the web side's floors come from it)."""
    from gradinglab.services.workers import worker_token_create

    return worker_token_create(name="h100-test", kind="h100", device=H100_DEVICE)


def worker_headers(token: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Worker {token}"}


def take_messages(queue: str, expect: int = 1, timeout_s: float = 10.0) -> list[tuple[str, dict]]:
    """Pop (task name, kwargs) from the real broker (the test Redis, this run's key prefix)."""
    import time

    from pdcsite.celery import app

    found: list[tuple[str, dict]] = []
    deadline = (
        time.monotonic() + timeout_s
    )  # seconds; messages are in Redis before on_commit returns
    with app.connection_for_read() as conn:
        simple = conn.SimpleQueue(queue)
        while len(found) < expect and time.monotonic() < deadline:
            try:
                message = simple.get(timeout=1)
            except simple.Empty:
                continue
            _args, kwargs, _embed = message.decode()
            message.ack()
            found.append((message.headers["task"], kwargs))
        simple.close()
    return found


def take_jobs(queue: str = "grade-cpu", expect: int = 1, timeout_s: float = 10.0) -> list[dict]:
    """Grading job payloads, as a worker would receive them."""
    messages = take_messages(queue, expect, timeout_s)
    assert all(name == "gradinglab.grade_submission" for name, _ in messages)
    return [kwargs["payload"] for _, kwargs in messages]


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


ROOT = Path(__file__).resolve().parents[2]


def start_worker(
    *,
    app: str,
    api_url: str,
    token: str,
    log_path: Path,
    concurrency: int = 1,
    extra_env: dict[str, str] | None = None,
):
    """A real Celery worker process on grade-cpu against the test Redis (this run's key prefix).

    It is started in its own session so a test can kill -9 the whole worker (parent and pool child).
    """
    import os
    import subprocess
    import sys

    env = dict(os.environ)
    if app == "gradinglab.worker":  # a grading host: no Django settings, no database credentials
        for name in ("DJANGO_SETTINGS_MODULE", "DATABASE_URL"):
            env.pop(name, None)
    env.update(
        PDC_API_URL=api_url,
        PDC_WORKER_TOKEN=token,
        PDC_WORKER_KIND="cpu",
        PYTHONUNBUFFERED="1",
        **(extra_env or {}),
    )
    celery = str(Path(sys.executable).with_name("celery"))
    cmd = [
        celery, "-A", app, "worker", "-Q", "grade-cpu", "--pool", "prefork",
        "--concurrency", str(concurrency), "--hostname", f"test-{os.getpid()}-{log_path.stem}@%h",
        "--loglevel", "INFO", "--without-gossip", "--without-mingle", "--without-heartbeat",
    ]  # fmt: skip
    log = log_path.open("ab")
    return subprocess.Popen(
        cmd, cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
    )


def stop_worker(proc, sig: int | None = None) -> None:
    import os
    import signal
    import subprocess

    if proc.poll() is not None:
        return
    os.killpg(proc.pid, sig or signal.SIGTERM)
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait(timeout=10)


def wait_until(predicate, *, timeout_s: float, what: str, log_path: Path | None = None, proc=None):
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        if proc is not None and proc.poll() is not None:
            break  # the worker died: no point waiting
        time.sleep(0.5)
    tail = log_path.read_text(errors="replace")[-4000:] if log_path and log_path.exists() else ""
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what}\n{tail}")


def submit_and_take(client, capture, **kwargs):
    """Submit through the students' API and pop the job the broker got (returns response, payload)."""
    with capture(execute=True):
        response = submit(client, **kwargs)
    jobs = take_jobs() if response.status_code == 201 else []
    return response, (jobs[0] if jobs else None)


def gpu_doc(median_ms: float | None = None, roofline: float | None = None) -> dict[str, Any]:
    """A GPU-path result. This machine has no GPU: the GPU part (timing) is made up here, on top of
    a real CPU-path document from the runner. Give a median or a roofline fraction (of the H100
    SXM's 3350 GB/s); the other follows from it, as the web side recomputes it."""
    peak_bps = 3350e9
    if median_ms is None:
        median_ms = VECTOR_ADD_BYTES / ((roofline or 0.35) * peak_bps) * 1e3
    gbps = VECTOR_ADD_BYTES / (median_ms / 1e3) / 1e9
    doc = load_doc("accepted")
    doc["path"] = "gpu"
    doc["device"] = {
        "kind": "cuda", "name": H100_DEVICE, "peak_gbps": 3350.0,
        "peak_tflops": 67.0, "peak_source": "table",
    }  # fmt: skip
    doc["timing"] = {
        "benchmark": "large", "shape": {"n": 16777216}, "median_ms": median_ms,
        "mean_ms": median_ms, "std_ms": 0.001, "runs": 50, "cv": 0.002, "gbps": gbps,
        "tflops": None, "roofline_fraction": gbps / 3350.0, "floor_ms": 0.06,
        "reference_median_ms": 0.25, "speedup_vs_reference": round(0.25 / median_ms, 3),
        "event_overhead_ms": 0.004, "wall_s": 3.0,
    }  # fmt: skip
    bench = {k: doc["timing"][k] for k in (
        "shape", "median_ms", "mean_ms", "std_ms", "runs", "cv", "gbps", "tflops",
        "roofline_fraction", "floor_ms", "reference_median_ms", "speedup_vs_reference",
    )}  # fmt: skip
    ci = [median_ms * 0.99, median_ms * 1.01]
    bench.update(name="large", dtype="float32", ci95_ms=ci, first_use_ms=median_ms,
                 device_events_median_ms=median_ms, retimes=0)  # fmt: skip
    doc["timing"].update(clock="trusted-parent", ci95_ms=ci, combine="mean", retimes=0,
                         benchmarks=[bench])  # fmt: skip
    return doc


def graded_on_h100(student, worker, token: str, capture, doc: dict[str, Any]) -> int:
    """A CUDA submission by `student` to a 100-point H100 assignment, graded with `doc` (a mocked GPU
    document, see gpu_doc: no GPU here) posted as the worker; returns the submission's id."""
    make_assignment(gpu_kind="h100", points=Decimal("100"))
    purge("grade-gpu-h100")
    with capture(execute=True):
        response = submit(student, source=correct_cuda_source(), backend="cuda")
    [job] = take_jobs("grade-gpu-h100")
    assert (
        post_result(worker, token, job["job_token"], {**doc, "backend": "cuda"}).status_code == 201
    )
    return response.json()["id"]


@pytest.fixture
def two_submissions(client_a, client_b, assignment, django_capture_on_commit_callbacks):
    """Ids of one submission by student_a and one by student_b, through the API."""
    purge()
    a, _ = submit_and_take(client_a, django_capture_on_commit_callbacks)
    b, _ = submit_and_take(client_b, django_capture_on_commit_callbacks)
    assert a.status_code == b.status_code == 201
    return a.json()["id"], b.json()["id"]
