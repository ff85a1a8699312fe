"""The roofline picture of a GPU-timed result: the device's memory and compute roofs and where the
submission (and the student's earlier timed submissions of the problem) sit under them.

Arithmetic intensity and achieved FLOP/s come from the problem's cost formulas at the timed shape
(the same formulas the runner scores with), so the chart and the roofline fraction agree."""

from __future__ import annotations

from typing import Any

DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2, "int32": 4}


def _point(package, timing: dict[str, Any]) -> dict[str, float] | None:
    from gradinglab.runner.problems import ProblemInvalid, problem_cost

    median_ms = timing.get("median_ms")
    if not median_ms or not timing.get("shape"):
        return None
    elem = DTYPE_BYTES.get((package.dtypes or ["float32"])[0], 4)
    try:
        cost = problem_cost(package, timing["shape"], elem)
    except (ProblemInvalid, KeyError, TypeError, ZeroDivisionError):
        return None
    flops, moved = float(cost.get("flops") or 0), float(cost.get("bytes") or 0)
    if flops <= 0 or moved <= 0:
        return None
    return {"ai": flops / moved, "gflops": flops / (median_ms * 1e-3) / 1e9}


def roofline_chart(submission, history: list) -> dict[str, Any] | None:
    """Chart data for a GPU-timed submission, or None (CPU path, no device peaks, no cost)."""
    from gradinglab.runner import ProblemNotFound, load_problem

    doc = submission.result or {}
    timing, device = doc.get("timing") or {}, doc.get("device") or {}
    peak_gbps, peak_tflops = device.get("peak_gbps"), device.get("peak_tflops")
    if not timing or not peak_gbps or not peak_tflops:
        return None
    try:
        package = load_problem(submission.assignment.problem.slug)
    except ProblemNotFound:
        return None
    point = _point(package, timing)
    if point is None:
        return None
    past = []
    for other in history:
        other_timing = (other.result or {}).get("timing") or {}
        p = _point(package, other_timing) if other.pk != submission.pk else None
        if p:
            past.append({**p, "label": f"#{other.pk}"})
    return {
        "peak_gbps": float(peak_gbps),
        "peak_gflops": float(peak_tflops) * 1e3,
        "ridge": float(peak_tflops) * 1e3 / float(peak_gbps),  # FLOP/byte where the roofs meet
        "point": {**point, "label": f"#{submission.pk}"},
        "history": past,
        "device": device.get("name", ""),
    }
