"""An item's curve in the one score rule (calc.py), table-tested without a database: add and scale,
held within 0…max, applied after the late penalty, never to missing or excused items; and it
reaches the category and course totals. An override is curved too (calc sees the override as the
raw score): test_curve_pages.py checks it through the database."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

import pytest

from gradebook import calc
from gradebook.calc import CURVE_ADD, CURVE_SCALE, Curve, Score

DUE = datetime(2026, 10, 1, 23, 59, tzinfo=UTC)
NOW = datetime(2026, 12, 1, tzinfo=UTC)
CATS = [calc.CategorySpec("quiz", D(100))]
PEN = {"late_policy": "penalty", "penalty_per_day": D(10), "penalty_cap": D(50)}
ADD5, SCALE11 = Curve(CURVE_ADD, D(5)), Curve(CURVE_SCALE, D("1.1"))


def _result(curve: Curve | None, score: Score | None, excused: bool = False, **policy):
    item = calc.ItemSpec("quiz:1", "quiz", D(100), due_at=DUE, curve=curve, **policy)
    facts = calc.StudentFacts(scores={"quiz:1": score} if score else {})
    if excused:
        facts.excused.add("quiz:1")
    standing = calc.compute_standing(
        items=[item], categories=CATS, facts=facts, grace_budget=0, now=NOW
    )
    return standing.items["quiz:1"], standing


ON_TIME = DUE - timedelta(hours=1)
TWO_DAYS_LATE = DUE + timedelta(days=1, hours=1)


@pytest.mark.parametrize(
    ("curve", "raw", "counted", "moved"),
    [
        (None, "60", "60.00", "0"),
        (ADD5, "60", "65.00", "5.00"),
        (ADD5, "97", "100.00", "3.00"),  # held at max
        (SCALE11, "60", "66.00", "6.00"),
        (SCALE11, "95", "100.00", "5.00"),  # held at max
        (SCALE11, "33.33", "36.66", "3.33"),  # to the cent, half up
        (Curve(CURVE_ADD, D(-5)), "3", "0.00", "-3.00"),  # never below 0
        (Curve(CURVE_SCALE, D("0.5")), "60", "30.00", "-30.00"),
    ],
)
def test_add_and_scale_are_held_within_0_and_max(curve, raw, counted, moved) -> None:
    result, _standing = _result(curve, Score(D(raw), ON_TIME))
    assert result.raw == D(raw)  # the raw score stays as posted
    assert result.counted == D(counted) and result.curve_points == D(moved)


def test_the_curve_comes_after_the_late_penalty() -> None:
    """2 days late at 10 %/day: 60 → 48, then +5 → 53 (not (60 + 5) × 0.8 = 52)."""
    result, _standing = _result(ADD5, Score(D(60), TWO_DAYS_LATE), **PEN)
    assert result.penalty_percent == D(20) and result.counted == D("53.00")
    scaled, _standing = _result(SCALE11, Score(D(60), TWO_DAYS_LATE), **PEN)
    assert scaled.counted == D("52.80")  # 48 × 1.1


def test_missing_and_excused_are_not_curved() -> None:
    missing, _standing = _result(ADD5, None)
    assert missing.status == "missing" and missing.counted == D(0) and missing.curve_points == 0
    excused, standing = _result(ADD5, Score(D(60), ON_TIME), excused=True)
    assert excused.status == "excused" and excused.counted is None
    assert standing.total_percent is None


def test_the_curve_reaches_the_course_total() -> None:
    _result_, standing = _result(SCALE11, Score(D(60), ON_TIME))
    assert standing.categories[0].percent == D("66.00")
    assert standing.total_percent == D("66.00") and standing.projected_percent == D("66.00")


@pytest.mark.parametrize(
    ("curve", "text"),
    [(ADD5, "+5"), (Curve(CURVE_ADD, D("-2.50")), "−2.5"), (SCALE11, "×1.1")],
)
def test_curve_text(curve, text) -> None:
    assert str(curve) == text
    assert D(curve.number) == curve.value  # typed back into the form as it is
