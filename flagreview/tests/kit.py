"""Rejected and flagged timed results, made the way the lab's tests make graded results: a student
submits through the API, the job is taken from the real broker, and a result document is posted to
the worker API with a GPU worker's credential (the web re-check and `_finish` do the rest).

No GPU here: the GPU part of the document (device, timing) is made up on top of a real CPU-path
document from the runner (labkit.gpu_doc). The rejection is shaped as the runner writes it
(`runner/timing_check.judge` flags and message, `runner/measure` keeps the timing, `finish`,
`runner/scoring.apply`)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from gradinglab.runner import scoring
from gradinglab.runner.problems import load_problem
from gradinglab.runner.result import finish
from gradinglab.tests import labkit

H100_GBPS = 3350.0  # GB/s: the H100 SXM's peak in runner/devices.py
FLOOR_MS = labkit.VECTOR_ADD_BYTES / (H100_GBPS * 1e9) * 1e3  # ms: the `large` benchmark's floor


def rejected_doc(median_ms: float = 0.01) -> dict[str, Any]:
    """A below-the-floor rejection of vector-add on an H100, as the runner writes it."""
    doc = labkit.gpu_doc(median_ms=median_ms)
    speedup = doc["timing"]["speedup_vs_reference"]
    doc["flags"] = [
        f"{speedup:.1f}x faster than the PyTorch reference: review",
        f"median {median_ms:.4f} ms is below the physical floor {FLOOR_MS:.4f} ms for "
        f"{labkit.H100_DEVICE}: flagged for TA review",
    ]
    finish(
        doc,
        status="rejected",
        message="measured time is faster than the hardware allows "
        f"({median_ms:.4f} ms < floor {FLOOR_MS:.4f} ms); a TA will review it",
    )
    scoring.apply(doc, load_problem("vector-add"))
    return doc


def flagged_doc(median_ms: float = 0.08, reference_ms: float = 1.0) -> dict[str, Any]:
    """An accepted run above the floor but over 10x faster than the reference (the web re-check
    recomputes the speed-up and flags it)."""
    doc = labkit.gpu_doc(median_ms=median_ms)
    for timing in (doc["timing"], *doc["timing"]["benchmarks"]):
        timing["reference_median_ms"] = reference_ms
        timing["speedup_vs_reference"] = reference_ms / median_ms
    return doc


def gpu_assignment(points: str = "10"):
    return labkit.make_assignment(gpu_kind="h100", points=Decimal(points))


def graded(client, student_client, token: str, doc: dict[str, Any], capture, tag: str = ""):
    """Submit as the student, post `doc` as the h100 worker; returns the Submission."""
    from gradinglab.models import Submission

    labkit.purge("grade-gpu-h100")
    with capture(execute=True):
        response = labkit.submit(student_client, source=labkit.correct_source() + tag)
    assert response.status_code == 201, response.content
    [job] = labkit.take_jobs("grade-gpu-h100")
    assert labkit.post_result(client, token, job["job_token"], doc).status_code == 201
    return Submission.objects.get(pk=response.json()["id"])
