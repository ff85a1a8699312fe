"""Score breakdown from problem.yaml's `scoring` (points; the web side decides what counts)."""

from __future__ import annotations

from typing import Any

from .problems import Problem


def apply(doc: dict[str, Any], problem: Problem) -> None:
    """Correctness points scale with tests passed, but only an accepted run earns them;
    performance points scale linearly up to `target_fraction_of_roofline` (GPU path only)."""
    if doc["status"] in ("infrastructure_error", "needs_gpu"):
        doc["score"] = None
        return
    cfg = problem.scoring
    c_max = float(cfg.get("correctness", 100))
    p_max = float(cfg.get("performance", 0))
    tests = doc.get("tests") or []
    passed = sum(1 for t in tests if t.get("passed"))
    accepted = doc["status"] == "accepted"
    correctness = c_max * passed / len(tests) if tests and accepted else 0.0
    performance = None
    note = "correctness only (CPU path: no timing)"
    timing = doc.get("timing")
    if timing and accepted and timing.get("roofline_fraction") is not None:
        target = float(cfg.get("target_fraction_of_roofline", 0.7))
        performance = p_max * min(1.0, float(timing["roofline_fraction"]) / target)
        note = f"performance scales linearly to {target:.0%} of the roofline"
    elif doc["status"] == "rejected":
        note = "rejected: no points until a TA reviews the run"
    elif not accepted:
        note = "not accepted: no points"
    doc["score"] = {
        "correctness": round(correctness, 3),
        "correctness_max": c_max,
        "performance": None if performance is None else round(performance, 3),
        "performance_max": p_max,
        "total": round(correctness + (performance or 0.0), 3),
        "max": c_max + p_max,
        "note": note,
    }
