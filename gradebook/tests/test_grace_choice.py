"""Under GRACE the standing chooses among the student's works of an item (the posted one and its
`others`) with the grace days left at that item: the one worth most, the fewest grace days among
equals. Other policies count the posted work only."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from gradebook import calc

DUE = datetime(2026, 3, 9, 10, 0, tzinfo=UTC)
DAY = timedelta(days=1)
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


def _graced(kind: str, count: int, *, penalty_per_day: int) -> list[calc.ItemSpec]:
    """``count`` GRACE items of 100 points in category ``kind``, due 5 days apart from DUE."""
    return [
        calc.ItemSpec(
            f"{kind}:{n}",
            kind,
            Decimal(100),
            due_at=DUE + timedelta(days=5 * n),
            late_policy=calc.GRACE,
            penalty_per_day=Decimal(penalty_per_day),
        )  # fmt: skip
        for n in range(count)
    ]


def test_the_plan_for_the_whole_course_beats_item_by_item_and_the_posted_works() -> None:
    """Three GRACE quizzes at 20 %/day, 2 grace days. Posted (chosen before grace days): 80, 70
    and a day-late 100 = 250. Item by item: the day-late 100 at the first (1 day), the
    two-days-late 100 at the second with the last day (80), 80 at the third = 260. Best: 100
    (1 day), the on-time 70, 100 (1 day) = 270."""
    day = timedelta(days=1)
    quizzes = _graced("quiz", 3, penalty_per_day=20)

    def work(n: int, points: int, days_late: int, ref: str) -> calc.Score:
        at = quizzes[n].due_at + days_late * day - timedelta(hours=1)
        return calc.Score(Decimal(points), at, ref)

    first = (work(0, 80, 0, "a-on-time"), work(0, 100, 1, "a-late"))
    second = (work(1, 70, 0, "b-on-time"), work(1, 100, 2, "b-late"))
    scores = {
        "quiz:0": calc.Score(Decimal(80), first[0].submitted_at, "a-on-time", first),
        "quiz:1": calc.Score(Decimal(70), second[0].submitted_at, "b-on-time", second),
        "quiz:2": work(2, 100, 1, "c-late"),
    }
    standing = calc.compute_standing(
        items=quizzes, categories=[calc.CategorySpec("quiz", Decimal(100))],
        facts=calc.StudentFacts(scores=scores), grace_budget=2, now=DUE + 30 * day,
    )  # fmt: skip
    assert [standing.items[q.key].ref for q in quizzes] == ["a-late", "b-on-time", "c-late"]
    assert standing.total_percent == Decimal("90.00") and standing.grace_used == 2
    # A budget far above every late day changes nothing (the plan's states stop at 3 here).
    generous = calc.compute_standing(
        items=quizzes, categories=[calc.CategorySpec("quiz", Decimal(100))],
        facts=calc.StudentFacts(scores=scores), grace_budget=30000, now=DUE + 30 * day,
    )  # fmt: skip
    assert generous.total_percent == Decimal("100.00")


def test_the_plan_is_not_searched_over_more_grace_days_than_its_cap() -> None:
    """Its cost grows with the grace days searched (59 ms a student at 1 000 days): works 100
    days late under a budget of 1 000 are planned item by item only."""
    far = calc.Score(Decimal(100), DUE + timedelta(days=100), "quiz-attempt:9")
    posted = calc.Score(ON_TIME.points, ON_TIME.submitted_at, ON_TIME.ref, (ON_TIME, far))
    facts = calc.StudentFacts(scores={"quiz:1": posted})
    assert calc._plan_table([_quiz(calc.GRACE)], facts, 1000) is None
    table = calc._plan_table([_quiz(calc.GRACE)], facts, calc.PLAN_MAX_GRACE_DAYS)
    assert calc._plan(table, calc._weights([_quiz(calc.GRACE)], [], facts)) != {}
    standing = calc.compute_standing(items=[_quiz(calc.GRACE)], categories=[], facts=facts,
                                     grace_budget=1000, now=DUE + timedelta(days=200))  # fmt: skip
    assert standing.items["quiz:1"].ref == far.ref  # item by item: 100 days of grace, 100 points


def test_where_the_lowest_is_dropped_grace_days_go_where_they_count() -> None:
    """Three GRACE labs at 100 %/day, 2 grace days, the lowest lab dropped. The first lab's 100
    is 2 days late, the others' 100s 1 day late; on time: 30, 90, 90. Item by item and the
    programme (which weighs every lab as kept) both spend the 2 days on the first lab's +70:
    100, 90, 90, the 90 dropped = 95 %. Best: the 30 is dropped anyway, so 1 day to each of the
    others: 30, 100, 100 = 100 %."""
    day = timedelta(days=1)
    labs = _graced("lab", 3, penalty_per_day=100)

    def works(n: int, on_time: int, days_late: int) -> calc.Score:
        early = calc.Score(Decimal(on_time), labs[n].due_at - day, f"{n}-on-time")
        late = calc.Score(
            Decimal(100), labs[n].due_at + days_late * day - timedelta(hours=1), f"{n}-late"
        )
        return calc.Score(early.points, early.submitted_at, early.ref, (early, late))

    scores = {"lab:0": works(0, 30, 2), "lab:1": works(1, 90, 1), "lab:2": works(2, 90, 1)}

    def standing(drop: int) -> calc.Standing:
        return calc.compute_standing(
            items=labs, categories=[calc.CategorySpec("lab", Decimal(100), drop_lowest=drop)],
            facts=calc.StudentFacts(scores=scores), grace_budget=2, now=DUE + 30 * day)  # fmt: skip

    dropped = standing(1)
    assert [dropped.items[lab.key].ref for lab in labs] == ["0-on-time", "1-late", "2-late"]
    assert dropped.total_percent == Decimal("100.00") and dropped.grace_used == 2
    assert dropped.items["lab:0"].dropped
    # With nothing dropped the programme's plan is best: 100 + 90 + 90 = 280 against 230.
    kept = standing(0)
    assert [kept.items[lab.key].ref for lab in labs] == ["0-late", "1-on-time", "2-on-time"]
    assert kept.total_percent == Decimal("93.33")


def test_too_many_plans_to_try_each_fall_back_to_the_programme() -> None:
    """Five labs with two works each are 32 plans, over PLAN_MAX_TRIES: none is listed."""
    labs = [calc.ItemSpec(f"lab:{n}", "lab", Decimal(100), due_at=DUE, late_policy=calc.GRACE)
            for n in range(5)]  # fmt: skip
    two = calc.Score(ON_TIME.points, ON_TIME.submitted_at, ON_TIME.ref, (ON_TIME, LATE))
    facts = calc.StudentFacts(scores={lab.key: two for lab in labs})
    drops = [calc.CategorySpec("lab", Decimal(100), drop_lowest=1)]
    assert calc.PLAN_MAX_TRIES == 2**4
    assert calc._every_plan(labs, drops, facts) is None
    assert len(calc._every_plan(labs[:4], drops, facts)) == 2**4
    assert calc._every_plan(labs, [calc.CategorySpec("lab", Decimal(100))], facts) is None


def test_only_a_category_that_counts_makes_every_plan_tried() -> None:
    """A category of weight 0 counts nothing in the total, so its drops leave `_plan` exact."""
    labs = _graced("lab", 2, penalty_per_day=20)
    two = calc.Score(ON_TIME.points, ON_TIME.submitted_at, ON_TIME.ref, (ON_TIME, LATE))
    facts = calc.StudentFacts(scores={lab.key: two for lab in labs})
    weightless = calc.CategorySpec("lab", Decimal(0), drop_lowest=1)
    assert calc._every_plan(labs, [weightless], facts) is None
    counts = calc.CategorySpec("lab", Decimal(10), drop_lowest=1)
    assert len(calc._every_plan(labs, [weightless, counts], facts)) == 4


def test_one_more_work_never_lowers_the_total_where_labs_weigh_the_same() -> None:
    """A review's case: four labs at 100 %/day, the lowest dropped, 2 grace days; 16 choices
    (every one tried) gave 98.33 %, and a late 99 at the fourth lab made 24, past the tries,
    where the programme's plan (every lab weighed as kept) gave 95.00 %. A programme run for
    each way to drop one lab finds the best plan however many choices there are."""
    day = timedelta(days=1)
    labs = _graced("lab", 4, penalty_per_day=100)

    def item(n: int, *works: tuple[int, int]) -> calc.Score:
        scores = [
            calc.Score(Decimal(p), labs[n].due_at + late * day - timedelta(hours=1), f"{n}-{k}")
            for k, (p, late) in enumerate(works)
        ]
        return calc.Score(
            scores[0].points, scores[0].submitted_at, scores[0].ref, tuple(scores[1:])
        )

    before = {"lab:0": item(0, (30, 0), (100, 2)), "lab:1": item(1, (90, 0), (100, 1)),
              "lab:2": item(2, (90, 0), (100, 1)), "lab:3": item(3, (95, 0), (97, 1))}  # fmt: skip
    after = dict(before, **{"lab:3": item(3, (95, 0), (97, 1), (99, 2))})
    drops = [calc.CategorySpec("lab", Decimal(100), drop_lowest=1)]
    for scores in (before, after):
        standing = calc.compute_standing(
            items=labs, categories=drops, facts=calc.StudentFacts(scores=scores),
            grace_budget=2, now=DUE + 40 * day)  # fmt: skip
        assert [standing.items[lab.key].ref for lab in labs] == ["0-0", "1-1", "2-1", "3-0"]
        assert standing.total_percent == Decimal("98.33")
    assert calc._every_plan(labs, drops, calc.StudentFacts(scores=after)) is None  # 24 choices
    assert len(calc._drop_weights(labs, drops, calc.StudentFacts(scores=after))) == 4


def test_where_labs_weigh_differently_every_choice_is_tried(monkeypatch) -> None:
    """Labs of weight 3, 1, 2 at 100 %/day, the lowest ratio dropped, 2 grace days. The 100s are
    2, 1 and 2 days late; on time: 40, 70, 80. Counting the third lab's late 100 with no grace
    day left (0) drops it, keeping 100 and 70: (3 + 0.7) / 4 = 92.50 %. No way to drop one lab
    makes that the programme's best (weighed as kept, the 0 is the worst choice): 92.00 %."""
    labs = [
        calc.ItemSpec(
            f"lab:{n}",
            "lab",
            Decimal(100),
            weight=Decimal(w),
            due_at=DUE + 5 * n * DAY,
            late_policy=calc.GRACE,
            penalty_per_day=Decimal(100),
        )  # fmt: skip
        for n, w in enumerate((3, 1, 2))
    ]

    def item(n: int, on_time: int, days_late: int) -> calc.Score:
        early = calc.Score(Decimal(on_time), labs[n].due_at - DAY, f"{n}-on-time")
        at = labs[n].due_at + days_late * DAY - timedelta(hours=1)
        return calc.Score(early.points, early.submitted_at, early.ref,
                          (early, calc.Score(Decimal(100), at, f"{n}-late")))  # fmt: skip

    scores = {"lab:0": item(0, 40, 2), "lab:1": item(1, 70, 1), "lab:2": item(2, 80, 2)}

    def standing() -> calc.Standing:
        return calc.compute_standing(
            items=labs, categories=[calc.CategorySpec("lab", Decimal(100), drop_lowest=1)],
            facts=calc.StudentFacts(scores=scores), grace_budget=2, now=DUE + 40 * DAY)  # fmt: skip

    tried = standing()
    assert [tried.items[lab.key].ref for lab in labs] == ["0-late", "1-on-time", "2-late"]
    assert tried.total_percent == Decimal("92.50") and tried.items["lab:2"].dropped
    monkeypatch.setattr(calc, "PLAN_MAX_TRIES", 0)
    assert standing().total_percent == Decimal("92.00")
