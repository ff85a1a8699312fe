"""The web side's score rule: the fraction of an assignment's points a result document earns.

Computed here from the document's tests and timing and the problem's *current* scoring weights (not
the runner's own total), so that a rule change can be re-applied to stored results by a regrade.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
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


# --- one score scale: the assignment's points -------------------------------------------------
# The runner's document carries the problem package's own breakdown (e.g. 60 correctness + 40
# performance = 100); students and staff only ever see the ASSIGNMENT's points (e.g. 10). These two
# functions are the one mapping from a document (or a rule) to those points, used by the web side
# (submission, problem page, gradebook) and by the students' CLI alike.

_CENT = Decimal("0.01")


def document_points(
    doc: dict[str, Any], scoring: dict[str, Any], *, points: Decimal, cpu_only: bool
) -> Decimal | None:
    """Assignment points a result earns (to the cent), or None when it says nothing."""
    fraction = document_fraction(doc, scoring, cpu_only=cpu_only)
    if fraction is None:
        return None
    return (Decimal(points) * Decimal(str(fraction))).quantize(_CENT)


@dataclass(frozen=True)
class PointSplit:
    correctness: Decimal
    performance: Decimal  # 0 on CPU-graded assignments: there is no timing to earn it


def point_split(scoring: dict[str, Any], *, points: Decimal, cpu_only: bool) -> PointSplit:
    """How an assignment's points divide between correctness and performance."""
    c_max = float(scoring.get("correctness", 100))
    p_max = float(scoring.get("performance", 0))
    if cpu_only or p_max <= 0 or c_max + p_max <= 0:
        return PointSplit(Decimal(points).quantize(_CENT), Decimal("0.00"))
    correctness = (Decimal(points) * Decimal(str(c_max / (c_max + p_max)))).quantize(_CENT)
    return PointSplit(correctness, (Decimal(points) - correctness).quantize(_CENT))
