"""Must hold 1: totals with weights, drop-lowest, excused, late penalty and grace days (table-driven).

Pure calculation, no database: each case is the course setup, one student's facts and the expected
counted points / category percents / course total.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal as D

import pytest

from gradebook.calc import (
    CategorySpec,
    ItemSpec,
    Score,
    Standing,
    StudentFacts,
    compute_standing,
    days_late,
)

DUE = datetime(2026, 10, 1, 23, 59, tzinfo=UTC)
NOW = datetime(2026, 12, 1, tzinfo=UTC)
HOUR = timedelta(hours=1)
DAY = timedelta(days=1)
CATS = [CategorySpec("quiz", D(30)), CategorySpec("lab", D(50)), CategorySpec("exam", D(20))]


def q(key: str, **kw) -> ItemSpec:
    return ItemSpec(key=key, category="quiz", max_points=D(10), due_at=DUE, **kw)


def lab(key: str, **kw) -> ItemSpec:
    return ItemSpec(key=key, category="lab", max_points=D(100), due_at=DUE, **kw)


def on_time(points: str) -> Score:
    return Score(D(points), DUE - HOUR)


def late(points: str, delay: timedelta) -> Score:
    return Score(D(points), DUE + delay)


PEN = {"late_policy": "penalty", "penalty_per_day": D(10), "penalty_cap": D(30)}
GRACE = {"late_policy": "grace", "penalty_per_day": D(20), "penalty_cap": D(100)}

CASES = [
    # (id, items, categories, scores, excused, grace budget, counted by key, category %, total %)
    (
        "weights-renormalise-over-graded-categories",
        [q("q1"), lab("l1"), ItemSpec("x", "exam", D(50), due_at=NOW + DAY)],
        CATS,
        {"q1": on_time("8"), "l1": on_time("60")},
        set(),
        0,
        {"q1": D("8.00"), "l1": D("60.00"), "x": None},
        {"quiz": D("80.00"), "lab": D("60.00"), "exam": None},
        D("67.50"),  # (30·80 + 50·60) / 80; the exam is not due yet and does not count
    ),
    (
        "missing-after-due-counts-zero",
        [q("q1"), q("q2")],
        CATS,
        {"q1": on_time("10")},
        set(),
        0,
        {"q1": D("10.00"), "q2": D("0")},
        {"quiz": D("50.00")},
        D("50.00"),
    ),
    (
        "drop-lowest-one",
        [q("q1"), q("q2"), q("q3")],
        [CategorySpec("quiz", D(100), drop_lowest=1)],
        {"q1": on_time("2"), "q2": on_time("8"), "q3": on_time("10")},
        set(),
        0,
        {"q1": D("2.00"), "q2": D("8.00"), "q3": D("10.00")},
        {"quiz": D("90.00")},
        D("90.00"),
    ),
    (
        "drop-lowest-keeps-at-least-one",
        [q("q1")],
        [CategorySpec("quiz", D(100), drop_lowest=3)],
        {"q1": on_time("4")},
        set(),
        0,
        {"q1": D("4.00")},
        {"quiz": D("40.00")},
        D("40.00"),
    ),
    (
        "item-weights-inside-category",
        [q("q1", weight=D(3)), q("q2", weight=D(1))],
        [CategorySpec("quiz", D(100))],
        {"q1": on_time("10"), "q2": on_time("0")},
        set(),
        0,
        {"q1": D("10.00"), "q2": D("0.00")},
        {"quiz": D("75.00")},
        D("75.00"),
    ),
    (
        "excused-leaves-totals-even-when-missing",
        [q("q1"), q("q2")],
        [CategorySpec("quiz", D(100))],
        {"q1": on_time("6")},
        {"q2"},
        0,
        {"q1": D("6.00"), "q2": None},
        {"quiz": D("60.00")},
        D("60.00"),
    ),
    (
        "penalty-per-day-one-hour-late-is-one-day",
        [lab("l1", **PEN)],
        [CategorySpec("lab", D(100))],
        {"l1": late("80", HOUR)},
        set(),
        0,
        {"l1": D("72.00")},
        {"lab": D("72.00")},
        D("72.00"),
    ),
    (
        "penalty-capped",
        [lab("l1", **PEN)],
        [CategorySpec("lab", D(100))],
        {"l1": late("80", 9 * DAY)},
        set(),
        0,
        {"l1": D("56.00")},  # 9 days × 10 % capped at 30 %
        {"lab": D("56.00")},
        D("56.00"),
    ),
    (
        "no-policy-no-penalty",
        [lab("l1")],
        [CategorySpec("lab", D(100))],
        {"l1": late("80", 3 * DAY)},
        set(),
        0,
        {"l1": D("80.00")},
        {"lab": D("80.00")},
        D("80.00"),
    ),
    (
        "grace-days-cover-then-penalty",
        [lab("l1", **GRACE), lab("l2", **GRACE)],
        [CategorySpec("lab", D(100))],
        # l1 2 days late uses 2 of 3 grace days; l2 3 days late: 1 covered, 2 × 20 % = 40 % off
        {"l1": late("100", 2 * DAY - HOUR), "l2": late("50", 3 * DAY - HOUR)},
        set(),
        3,
        {"l1": D("100.00"), "l2": D("30.00")},
        {"lab": D("65.00")},
        D("65.00"),
    ),
    (
        "excused-item-spends-no-grace",
        [lab("l1", **GRACE), lab("l2", **GRACE)],
        [CategorySpec("lab", D(100))],
        {"l1": late("100", 2 * DAY), "l2": late("50", DAY)},
        {"l1"},
        1,
        {"l1": None, "l2": D("50.00")},
        {"lab": D("50.00")},
        D("50.00"),
    ),
    (
        "unconfigured-category-has-no-weight",
        [ItemSpec("b1", "bonus", D(5), due_at=DUE), q("q1")],
        [CategorySpec("quiz", D(100))],
        {"b1": on_time("5"), "q1": on_time("5")},
        set(),
        0,
        {"b1": D("5.00"), "q1": D("5.00")},
        {"quiz": D("50.00"), "bonus": D("100.00")},
        D("50.00"),
    ),
]


@pytest.mark.parametrize(
    "items,cats,scores,excused,budget,counted,cat_pct,total",
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_totals(items, cats, scores, excused, budget, counted, cat_pct, total) -> None:
    facts = StudentFacts(scores=scores, excused=excused)
    standing = compute_standing(
        items=items, categories=cats, facts=facts, grace_budget=budget, now=NOW
    )
    assert {key: r.counted for key, r in standing.items.items()} == counted
    by_cat = {c.key: c.percent for c in standing.categories}
    assert {key: by_cat[key] for key in cat_pct} == cat_pct
    assert standing.total_percent == total


def test_grace_days_are_spent_earliest_deadline_first_and_reported() -> None:
    early = lab("l-early", **GRACE)
    later = ItemSpec("l-late", "lab", D(100), due_at=DUE + 7 * DAY, **GRACE)
    facts = StudentFacts(
        scores={"l-early": late("90", 2 * DAY), "l-late": Score(D(90), DUE + 9 * DAY)}
    )
    standing = compute_standing(
        items=[later, early], categories=CATS, facts=facts, grace_budget=3, now=NOW
    )
    assert (standing.items["l-early"].grace_days, standing.items["l-late"].grace_days) == (2, 1)
    assert (standing.grace_used, standing.grace_left) == (3, 0)
    assert standing.items["l-late"].penalty_percent == D(20)  # 2 days late, 1 covered


def test_drop_lowest_marks_the_dropped_item() -> None:
    standing = compute_standing(
        items=[q("q1"), q("q2")],
        categories=[CategorySpec("quiz", D(100), drop_lowest=1)],
        facts=StudentFacts(scores={"q1": on_time("3"), "q2": on_time("9")}),
        grace_budget=0,
        now=NOW,
    )
    assert standing.items["q1"].dropped and not standing.items["q2"].dropped


def test_releasing_an_item_never_moves_grace_days() -> None:
    """Grace days go to the earliest deadline first even while that item is unreleased, so the
    student's page shows the later item's penalty the same before and after the release."""
    later = ItemSpec("l-late", "lab", D(100), due_at=DUE + 7 * DAY, **GRACE)
    facts = StudentFacts(
        scores={"l-early": late("100", 2 * DAY - HOUR), "l-late": Score(D(100), DUE + 9 * DAY)}
    )

    def student_page(early_released: bool) -> Standing:
        early = lab("l-early", released=early_released, **GRACE)
        return compute_standing(
            items=[early, later],
            categories=CATS,
            facts=facts,
            grace_budget=2,
            now=NOW,
            released_only=True,
        )

    before, after = student_page(False), student_page(True)
    for standing in (before, after):
        late_item = standing.items["l-late"]
        assert (late_item.grace_days, late_item.penalty_percent) == (0, D(40))
    assert after.items["l-early"].grace_days == 2


def test_released_only_hides_unreleased_items_from_totals() -> None:
    items = [q("q1"), q("q2", released=False)]
    facts = StudentFacts(scores={"q1": on_time("10"), "q2": on_time("0")})
    args = {"items": items, "categories": CATS, "facts": facts, "grace_budget": 0, "now": NOW}
    assert compute_standing(**args).total_percent == D("50.00")
    assert compute_standing(**args, released_only=True).total_percent == D("100.00")


@pytest.mark.parametrize(
    "delay,expected",
    [(-HOUR, 0), (timedelta(0), 0), (timedelta(seconds=1), 1), (DAY, 1), (DAY + HOUR, 2)],
)
def test_days_late_counts_started_days(delay, expected) -> None:
    assert days_late(DUE + delay, DUE) == expected
    assert days_late(None, DUE) == 0 and days_late(DUE + delay, None) == 0


@pytest.mark.django_db
def test_default_categories_apply_when_none_are_configured() -> None:
    from gradebook.models import Category

    configured = [(c.key, c.weight) for c in Category.effective()]
    assert configured == [("quiz", D(30)), ("lab", D(50)), ("exam", D(20))]  # from migration 0002
    Category.objects.all().delete()  # as after a flush
    defaults = [(c.key, c.weight, c.pk) for c in Category.effective()]
    assert defaults == [("quiz", D(30), None), ("lab", D(50), None), ("exam", D(20), None)]
    Category.objects.create(key="lab", title="实验", weight=D(100))
    assert [(c.key, c.weight) for c in Category.effective()] == [("lab", D(100))]
