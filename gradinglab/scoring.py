"""The web side's score rule: the fraction of an assignment's points a result document earns.

Computed here from the document's tests and timing and the problem's *current* scoring weights (not
the runner's own total), so that a rule change can be re-applied to stored results by a regrade.
"""

from __future__ import annotations

from typing import Any

NO_SCORE = ("infrastructure_error", "needs_gpu")


def document_fraction(
    doc: dict[str, Any], scoring: dict[str, Any], *, cpu_only: bool
) -> float | None:
    """0..1, or None when the run says nothing about the student's work.

    CPU-graded assignments (no GPU kind) score correctness alone: there is no timing to earn the
    performance share, so it is left out of the maximum rather than withheld.
    """
    status = doc.get("status")
    if status in NO_SCORE:
        return None
    c_max = float(scoring.get("correctness", 100))
    p_max = float(scoring.get("performance", 0))
    tests = doc.get("tests") or []
    accepted = status == "accepted"
    correctness = (
        c_max * sum(1 for t in tests if t.get("passed")) / len(tests) if tests and accepted else 0.0
    )
    if cpu_only or p_max <= 0:
        return round(correctness / c_max, 6) if c_max > 0 else 0.0
    performance = 0.0
    fraction = (doc.get("timing") or {}).get("roofline_fraction")
    if accepted and fraction is not None:
        target = float(scoring.get("target_fraction_of_roofline", 0.7))
        performance = p_max * min(1.0, max(0.0, float(fraction)) / target)
    return round((correctness + performance) / (c_max + p_max), 6)
