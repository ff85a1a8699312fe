"""Under GRACE the standing chooses among the student's works of an item (the posted one and its
`others`) with the grace days left at that item: the one worth most, the fewest grace days among
equals. Other policies count the posted work only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from gradebook import calc

DUE = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
ON_TIME = calc.Score(Decimal(80), DUE - timedelta(hours=1), "quiz-attempt:1")
LATE = calc.Score(Decimal(100), DUE + timedelta(hours=36), "quiz-attempt:2")  # 2 days late
POSTED = calc.Score(ON_TIME.points, ON_TIME.submitted_at, ON_TIME.ref, (ON_TIME, LATE))


def _quiz(policy: str) -> calc.ItemSpec:
    return calc.ItemSpec("quiz:1", "quiz", Decimal(100), due_at=DUE, late_policy=policy,
                         penalty_per_day=Decimal(20))  # fmt: skip


def _result(policy: str, budget: int) -> tuple[calc.ItemResult, int]:
    facts = calc.StudentFacts(scores={"quiz:1": POSTED})
    standing = calc.compute_standing(items=[_quiz(policy)], categories=[], facts=facts,
                                     grace_budget=budget, now=DUE + timedelta(days=9))  # fmt: skip
    return standing.items["quiz:1"], standing.grace_used


@pytest.mark.parametrize(
    ("policy", "budget", "ref", "late", "grace", "penalty", "counted"),
    [
        (calc.GRACE, 2, LATE.ref, 2, 2, 0, 100),  # grace covers the late 100
        (calc.GRACE, 1, ON_TIME.ref, 0, 0, 0, 80),  # 100 less 20 % ties the 80: keep the grace
        (calc.GRACE, 0, ON_TIME.ref, 0, 0, 0, 80),
        (calc.PENALTY, 2, ON_TIME.ref, 0, 0, 0, 80),  # no grace days: the app's choice stands
    ],
)
def test_the_work_that_counts(policy, budget, ref, late, grace, penalty, counted) -> None:
    result, used = _result(policy, budget)
    assert (result.ref, result.days_late, result.grace_days) == (ref, late, grace)
    assert (result.penalty_percent, result.counted, used) == (penalty, counted, grace)
    assert result.raw == (LATE if ref == LATE.ref else ON_TIME).points


def test_frontier_keeps_only_works_that_beat_every_earlier_one() -> None:
    later_lower = calc.Score(Decimal(70), DUE + timedelta(hours=2), "quiz-attempt:3")
    assert calc.frontier([LATE, later_lower, ON_TIME]) == [ON_TIME, LATE]


def test_another_work_counts_only_where_it_raises_the_course_total() -> None:
    """Item by item, a late 81 on the first quiz would take both grace days from the second
    quiz's late 100 (81 + 60 instead of 80 + 100): the posted works count, and handing in the 81
    lowers nothing. A review found the total fall from 90 % to 70.5 % so."""
    first, second = _quiz(calc.GRACE), calc.ItemSpec(
        "quiz:2", "quiz", Decimal(100), due_at=DUE + timedelta(days=3), late_policy=calc.GRACE,
        penalty_per_day=Decimal(20))  # fmt: skip
    late_81 = calc.Score(Decimal(81), DUE + timedelta(hours=36), "quiz-attempt:3")
    late_100 = calc.Score(Decimal(100), DUE + timedelta(days=4, hours=12), "quiz-attempt:4")

    def standing(first_works: tuple[calc.Score, ...]) -> calc.Standing:
        posted = calc.Score(ON_TIME.points, ON_TIME.submitted_at, ON_TIME.ref, first_works)
        facts = calc.StudentFacts(scores={"quiz:1": posted, "quiz:2": late_100})
        return calc.compute_standing(
            items=[first, second], categories=[calc.CategorySpec("quiz", Decimal(100))],
            facts=facts, grace_budget=2, now=DUE + timedelta(days=9))  # fmt: skip

    before, after = standing(()), standing((ON_TIME, late_81))
    assert before.total_percent == after.total_percent == Decimal("90.00")
    assert after.items["quiz:1"].ref == ON_TIME.ref and after.items["quiz:2"].grace_days == 2
    # Where the choice pays it is made: with no second quiz, the late 100 counts.
    alone = calc.compute_standing(
        items=[first], categories=[calc.CategorySpec("quiz", Decimal(100))],
        facts=calc.StudentFacts(scores={"quiz:1": POSTED}), grace_budget=2,
        now=DUE + timedelta(days=9))  # fmt: skip
    assert alone.items["quiz:1"].ref == LATE.ref and alone.total_percent == Decimal("100.00")
