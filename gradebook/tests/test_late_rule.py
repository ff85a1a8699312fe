"""`calc.LateRule` (what other apps ask to choose between a student's works, or to say "late") is
the rule `compute_standing` charges by, not a second one: same days, same penalty, same points."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from gradebook import calc

DUE = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
ITEMS = [
    calc.ItemSpec("quiz:1", "quiz", Decimal(20), due_at=DUE),
    calc.ItemSpec("quiz:1", "quiz", Decimal(20), due_at=DUE, late_policy=calc.PENALTY,
                  penalty_per_day=Decimal(50), penalty_cap=Decimal(50)),
    calc.ItemSpec("quiz:1", "quiz", Decimal(20), due_at=DUE, late_policy=calc.PENALTY,
                  penalty_per_day=Decimal(10), penalty_cap=Decimal(30)),
]  # fmt: skip
LATE = [timedelta(hours=-1), timedelta(0), timedelta(seconds=1), timedelta(hours=25),
        timedelta(days=9)]  # fmt: skip


@pytest.mark.parametrize("item", ITEMS, ids=["none", "flat 50", "10 a day to 30"])
@pytest.mark.parametrize("late", LATE, ids=[str(t) for t in LATE])
@pytest.mark.parametrize("extended", [None, DUE + timedelta(days=2)], ids=["own due", "extended"])
def test_late_rule_is_the_standing_rule(item, late, extended) -> None:
    at = DUE + late
    facts = calc.StudentFacts(scores={item.key: calc.Score(Decimal("16.36"), at)})
    if extended:
        facts.due_overrides[item.key] = extended
    result = calc.compute_standing(
        items=[item], categories=[], facts=facts, grace_budget=0, now=DUE + timedelta(days=30)
    ).items[item.key]
    rule = calc.LateRule(item, extended or DUE)
    assert rule.penalty_percent(at) == result.penalty_percent
    assert rule.counted(Decimal("16.36"), at) == result.counted
    assert rule.is_late(at) == (calc.days_late(at, extended or DUE) > 0)
