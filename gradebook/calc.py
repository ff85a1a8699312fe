"""What counts: late penalties, grace days, curves, excused and dropped items, category and course
totals.

Pure Python over plain dataclasses (no ORM), so the rules are table-tested without a database and the
staff grid computes hundreds of students from one bulk load. Scores arrive RAW (as posted, or the
staff override); this module alone decides the penalty, so an extension granted later changes the
result the next time anything is shown. Under GRACE it also chooses which of the student's works
counts, since that depends on the grace days left when the standing reaches the item.

One order for every item's score: the raw score (the staff override when one is in force, else the
work that counts), then the late penalty, then the item's curve (`Curve`), held within 0…max. So a
curve is the last word and lifts an overridden score too: an override corrects one student's raw
score (a regrade answer is one), and that student must not lose the curve everyone else got.
Missing work stays 0 and excused items stay out: a curve only ever moves a graded score.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

HUNDRED = Decimal(100)
ZERO = Decimal(0)
_CENT = Decimal("0.01")
_DAY_S = 86400  # seconds in a late day; any started day counts as a whole day late

NONE, PENALTY, GRACE = "none", "penalty", "grace"
NOT_STARTED, MISSING, GRADED, EXCUSED = "not_started", "missing", "graded", "excused"


def q2(value: Decimal) -> Decimal:
    return value.quantize(_CENT, ROUND_HALF_UP)


CURVE_ADD, CURVE_SCALE = "add", "scale"


@dataclass(frozen=True)
class Curve:
    """An item's curve: add ``value`` points, or multiply by ``value``, to every graded score after
    its late penalty; the result held within 0…max points."""

    kind: str  # CURVE_ADD or CURVE_SCALE
    value: Decimal

    def apply(self, points: Decimal, max_points: Decimal) -> Decimal:
        moved = points + self.value if self.kind == CURVE_ADD else points * self.value
        return min(max(q2(moved), ZERO), max_points)

    @property
    def number(self) -> str:
        """The value as typed back into a form: "5", "-2.5", "1.1" (no trailing zeros)."""
        text = f"{self.value:f}"
        return text.rstrip("0").rstrip(".") if "." in text else text

    def __str__(self) -> str:
        """As the pages write it, in any language: "+5", "−2", "×1.1"."""
        if self.kind == CURVE_SCALE:
            return f"×{self.number}"
        return f"{'−' if self.value < 0 else '+'}{self.number.lstrip('-')}"


def curve_text(curve: Curve | None, result: ItemResult) -> str:
    """The curve ("+5", "×1.1") where it moved the result (a graded score), else "": what every
    page and file writes beside the counted points."""
    return str(curve) if curve and result.status == GRADED else ""


@dataclass(frozen=True)
class ItemSpec:
    key: str
    category: str
    max_points: Decimal
    weight: Decimal = Decimal(1)
    due_at: datetime | None = None
    late_policy: str = NONE
    penalty_per_day: Decimal = ZERO  # percent of the raw score per late day
    penalty_cap: Decimal = HUNDRED  # percent: the most a late submission can lose
    released: bool = True
    curve: Curve | None = None


@dataclass(frozen=True)
class CategorySpec:
    key: str
    weight: Decimal  # percent of the course total
    drop_lowest: int = 0


@dataclass(frozen=True)
class Score:
    points: Decimal  # raw: the automatic score, or the staff override when one is in force
    submitted_at: datetime | None = None
    ref: str = ""  # the work it came from ("quiz-attempt:5"), as Grade.counted_ref names it
    # The student's other works of the item that may count instead (`frontier`): under GRACE the
    # work worth most depends on the grace days left, which only the whole standing knows.
    others: tuple[Score, ...] = ()

    def to_json(self) -> list:
        """The work as Grade.candidates stores it (others left out)."""
        at = self.submitted_at.isoformat() if self.submitted_at else None
        return [str(self.points), at, self.ref]

    @classmethod
    def from_json(cls, row: list) -> Score:
        points, at, ref = row
        return cls(Decimal(points), datetime.fromisoformat(at) if at else None, ref)


@dataclass
class StudentFacts:
    scores: dict[str, Score] = field(default_factory=dict)
    due_overrides: dict[str, datetime] = field(default_factory=dict)  # key -> extended due date
    excused: set[str] = field(default_factory=set)


@dataclass
class ItemResult:
    key: str
    status: str
    due_at: datetime | None
    raw: Decimal | None = None
    ref: str = ""  # the work that counts (the one chosen under GRACE)
    days_late: int = 0
    grace_days: int = 0
    penalty_percent: Decimal = ZERO
    counted: Decimal | None = None  # points that count after the penalty and curve; 0 when missing
    curve_points: Decimal = ZERO  # what the item's curve added to this score (negative: took)
    dropped: bool = False
    extended: bool = False


@dataclass
class CategoryResult:
    key: str
    weight: Decimal
    percent: Decimal | None
    counted_items: int
    dropped: list[str]


@dataclass
class Standing:
    items: dict[str, ItemResult]
    categories: list[CategoryResult]
    total_percent: Decimal | None
    grace_budget: int
    grace_used: int
    # The total if every item not graded yet scored 0 (categories with no items yet count 0 too):
    # what the student is sure of for the whole course, shown beside the "graded so far" total.
    projected_percent: Decimal | None = None

    @property
    def grace_left(self) -> int:
        return self.grace_budget - self.grace_used


def days_late(submitted_at: datetime | None, due_at: datetime | None) -> int:
    if submitted_at is None or due_at is None or submitted_at <= due_at:
        return 0
    return math.ceil((submitted_at - due_at).total_seconds() / _DAY_S)


def due_with_extra_days(due_at: datetime | None, extra_days: int) -> datetime | None:
    return None if due_at is None else due_at + timedelta(days=extra_days)


def _penalty(item: ItemSpec, uncovered_days: int) -> Decimal:
    if uncovered_days <= 0:
        return ZERO
    return min(item.penalty_per_day * uncovered_days, item.penalty_cap, HUNDRED)


def _days_charged(item: ItemSpec, submitted_at: datetime | None, due: datetime | None) -> int:
    """Late days the item's policy charges (before grace days): none under the NONE policy."""
    return days_late(submitted_at, due) if item.late_policy != NONE else 0


def _after_penalty(points: Decimal, penalty_percent: Decimal) -> Decimal:
    return q2(points * (HUNDRED - penalty_percent) / HUNDRED)


@dataclass(frozen=True)
class LateRule:
    """One student's lateness on one item: the item's policy and the student's own (extended) due
    date. For an app choosing between the student's works of that item, or saying whether one was
    late; the item's result itself comes from `compute_standing`, which also spends grace days."""

    item: ItemSpec
    due_at: datetime | None

    def is_late(self, submitted_at: datetime | None) -> bool:
        return days_late(submitted_at, self.due_at) > 0

    def penalty_percent(self, submitted_at: datetime | None) -> Decimal:
        """The percent lost before grace days (which depend on the student's other items)."""
        return _penalty(self.item, _days_charged(self.item, submitted_at, self.due_at))

    def counted(self, points: Decimal, submitted_at: datetime | None) -> Decimal:
        return _after_penalty(points, self.penalty_percent(submitted_at))


@dataclass(frozen=True)
class _Charge:
    """One work as the item counts it: its late days, the grace days it spends, its penalty."""

    work: Score
    days_late: int
    grace_days: int
    penalty_percent: Decimal
    counted: Decimal
    curve_points: Decimal = ZERO


def _charge(item: ItemSpec, work: Score, due: datetime | None, grace_left: int) -> _Charge:
    late = _days_charged(item, work.submitted_at, due)
    grace = min(late, grace_left) if item.late_policy == GRACE else 0
    penalty = _penalty(item, late - grace)
    after = _after_penalty(work.points, penalty)
    counted = item.curve.apply(after, item.max_points) if item.curve else after
    return _Charge(work, late, grace, penalty, counted, counted - after)


# How an item's work is chosen among its charges (the posted work's first): `_posted`, `_greedy`,
# or the works an optimal plan picked (`_picked`).
Chooser = Callable[[ItemSpec, list[_Charge]], _Charge]


def _posted(item: ItemSpec, charges: list[_Charge]) -> _Charge:
    return charges[0]


def _greedy(item: ItemSpec, charges: list[_Charge]) -> _Charge:
    """The work worth most with the grace days left here; among equals the fewest grace days
    spent, then the posted work (max keeps the first of equals)."""
    return max(charges, key=lambda c: (c.counted, -c.grace_days))


def _picked(refs: dict[str, str]) -> Chooser:
    def choose(item: ItemSpec, charges: list[_Charge]) -> _Charge:
        return next((c for c in charges if c.work.ref == refs.get(item.key)), charges[0])

    return choose


def _chosen(
    item: ItemSpec, score: Score, due: datetime | None, grace_left: int, choose: Chooser
) -> _Charge:
    """The work that counts: under GRACE the grace days left may make another of the student's
    works worth more than the one posted (the app chose before grace days, which it cannot know);
    other policies count the posted work."""
    works = (score,) if counts_posted(item, score) else (score, *score.others)
    return choose(item, [_charge(item, work, due, grace_left) for work in works])


def counts_posted(item: ItemSpec, score: Score) -> bool:
    """True when the item counts the posted work whatever the rest of the standing: only under
    GRACE, with other works to choose from, does the choice depend on the grace days left."""
    return item.late_policy != GRACE or not score.others


def frontier(works: Iterable[Score]) -> list[Score]:
    """The works that can count most under some due date, penalty and grace days: in time order,
    each scoring more than every earlier one. A later work with no more points is never worth
    more, since lateness only grows with time."""
    kept: list[Score] = []
    for work in sorted(works, key=lambda w: (w.submitted_at is not None, w.submitted_at or 0)):
        if not kept or work.points > kept[-1].points:
            kept.append(work)
    return kept


def _item_result(
    item: ItemSpec, facts: StudentFacts, now: datetime, grace_left: int, choose: Chooser
) -> tuple[ItemResult, int]:
    """One item's result and the grace days it spends."""
    due = facts.due_overrides.get(item.key, item.due_at)
    result = ItemResult(item.key, NOT_STARTED, due, extended=item.key in facts.due_overrides)
    score = facts.scores.get(item.key)
    if item.key in facts.excused:
        result.status = EXCUSED
        result.raw, result.ref = (score.points, score.ref) if score else (None, "")
        return result, 0
    if score is None:
        if due is not None and now > due:
            result.status, result.counted = MISSING, ZERO
        return result, 0
    chosen = _chosen(item, score, due, grace_left, choose)
    result.status, result.raw, result.ref = GRADED, chosen.work.points, chosen.work.ref
    result.days_late, result.grace_days = chosen.days_late, chosen.grace_days
    result.penalty_percent, result.counted = chosen.penalty_percent, chosen.counted
    result.curve_points = chosen.curve_points
    return result, chosen.grace_days


def _grace_order(items: list[ItemSpec], facts: StudentFacts) -> list[ItemSpec]:
    """Grace days go to the earliest deadline first, so spending them is predictable to students."""
    far = datetime.max.replace(tzinfo=None)

    def key(item: ItemSpec) -> tuple:
        due = facts.due_overrides.get(item.key, item.due_at)
        return (due is None, due.replace(tzinfo=None) if due else far, item.key)

    return sorted(items, key=key)


def _category(spec: CategorySpec, results: list[tuple[ItemSpec, ItemResult]]) -> CategoryResult:
    counted = [(item, res) for item, res in results if res.counted is not None]
    counted.sort(key=lambda pair: (pair[1].counted / pair[0].max_points, pair[0].key))
    drop = min(max(spec.drop_lowest, 0), max(len(counted) - 1, 0))  # always keep one item
    for _item, res in counted[:drop]:
        res.dropped = True
    kept = counted[drop:]
    weight_sum = sum((item.weight for item, _ in kept), ZERO)
    percent = None
    if kept and weight_sum > 0:
        ratio = sum((item.weight * res.counted / item.max_points for item, res in kept), ZERO)
        percent = q2(ratio / weight_sum * HUNDRED)
    return CategoryResult(
        spec.key, spec.weight, percent, len(kept), [i.key for i, _ in counted[:drop]]
    )


def compute_standing(
    *,
    items: list[ItemSpec],
    categories: list[CategorySpec],
    facts: StudentFacts,
    grace_budget: int,
    now: datetime,
    released_only: bool = False,
) -> Standing:
    """Everything a student's grade page and the staff grid show for one student.

    Grace days are allocated over every item (released or not) so releasing an item never moves
    grace days between items; `released_only` then leaves unreleased items out of the totals.
    """
    results, grace_left = _allocate(items, categories, facts, grace_budget, now)
    shown = [item for item in items if item.released or not released_only]
    specs = {spec.key: spec for spec in categories}
    for item in shown:  # a category staff have not configured still shows, with weight 0
        specs.setdefault(item.category, CategorySpec(item.category, ZERO))
    cats = [
        _category(spec, [(i, results[i.key]) for i in shown if i.category == spec.key])
        for spec in specs.values()
    ]
    weighted = [c for c in cats if c.percent is not None and c.weight > 0]
    total_weight = sum((c.weight for c in weighted), ZERO)
    total = (
        q2(sum((c.weight * c.percent for c in weighted), ZERO) / total_weight)
        if total_weight > 0
        else None
    )
    used = grace_budget - grace_left
    projected = _projected_total(list(specs.values()), shown, results)
    return Standing(results, cats, total, grace_budget, used, projected)


def _allocate(
    items: list[ItemSpec],
    categories: list[CategorySpec],
    facts: StudentFacts,
    grace_budget: int,
    now: datetime,
) -> tuple[dict[str, ItemResult], int]:
    """Every item's result and the grace days left. The posted works count, unless choosing
    among the student's other works under GRACE gives a higher course total. Besides the posted
    works, item by item is tried (the work worth most with the grace days left there, which may
    spend grace days a later item needed more), then the plans for the whole course (`_plans`).
    The one worth most counts, the earlier on a tie (posted, then item by item), so the choice
    never counts less than the posted works. Where the plans find the best (no dropped items, or
    a category's items weigh the same and there are at most PLAN_MAX_DROP_WAYS ways to drop, or
    at most PLAN_MAX_TRIES choices), handing in more work never lowers the total; elsewhere the
    plan is the best found, and one more work can."""
    order = _grace_order(items, facts)
    posted = _allocate_in_order(order, facts, grace_budget, now, _posted)
    if not any(score.others for score in facts.scores.values()):
        return posted
    best, worth = posted, _worth(categories, items, posted[0])
    for choose in (_greedy, *map(_picked, _plans(order, categories, facts, grace_budget))):
        tried = _allocate_in_order(order, facts, grace_budget, now, choose)
        if (tried_worth := _worth(categories, items, tried[0])) > worth:
            best, worth = tried, tried_worth
    return best


def _plans(
    order: list[ItemSpec], categories: list[CategorySpec], facts: StudentFacts, grace_budget: int
) -> list[dict[str, str]]:
    """The whole-course plans to try, each once: where no category that counts drops its lowest
    items, `_plan`'s. Otherwise `_plan`'s for each way to drop them (`_drop_weights`: the best of
    these is the best plan where a category's items weigh the same) and every choice of works
    (`_every_plan`: the best where items weigh differently); `_plan`'s as if nothing were
    dropped where there are too many of both."""
    table, ways = _plan_table(order, facts, grace_budget), _drop_weights(order, categories, facts)
    plans = [_plan(table, w) for w in ways or []] if table else []
    if ways is None or not _drops_weigh_the_same(order, categories, facts):
        plans += _every_plan(order, categories, facts) or []
    if not plans and table:
        plans = [_plan(table, _weights(order, categories, facts))]
    return list({tuple(sorted(plan.items())): plan for plan in plans}.values())


def _drops_weigh_the_same(
    items: list[ItemSpec], categories: list[CategorySpec], facts: StudentFacts
) -> bool:
    """True where every category that counts and drops has items of one weight (excused ones
    aside): there the best of `_drop_weights`' plans is the best plan, and no choice need be tried
    one by one."""
    dropping = {spec.key for spec in categories if spec.weight > 0 and spec.drop_lowest > 0}
    return all(
        len({i.weight for i in items if i.category == key and i.key not in facts.excused}) <= 1
        for key in dropping
    )


# Ways to drop the lowest items that `_drop_weights` lists at most (their product over the
# categories that drop): each is one programme run (items x grace days x works), and its plan one
# more try (see PLAN_MAX_TRIES). Ten labs dropping one are 10 ways; thirty quizzes dropping two
# are 435, past it.
PLAN_MAX_DROP_WAYS = 32


def _drop_weights(
    items: list[ItemSpec], categories: list[CategorySpec], facts: StudentFacts
) -> list[dict[str, Decimal]] | None:
    """Where a category that counts drops its lowest items: for each way to drop that many of its
    items (each such category at once), every item's share of the projected total with those
    left out. Where a category's items weigh the same, its percent is the highest of its percents
    over the ways to drop (the lowest dropped leaves the highest mean), so the best of the
    programmes' plans, one a way, is the best plan. None where no category that counts drops,
    or past PLAN_MAX_DROP_WAYS ways."""
    per_category = []
    for spec in categories:
        if spec.weight <= 0 or spec.drop_lowest <= 0:
            continue
        members = [i.key for i in items if i.category == spec.key and i.key not in facts.excused]
        drop = min(spec.drop_lowest, max(len(members) - 1, 0))
        per_category.append(list(itertools.combinations(members, drop)))
    if not per_category or math.prod(map(len, per_category)) > PLAN_MAX_DROP_WAYS:
        return None
    return [
        _weights(items, categories, facts, set(itertools.chain(*way)))
        for way in itertools.product(*per_category)
    ]


# Choices of works tried one by one at most, where a category drops its lowest items: the best
# plan where its items weigh differently (`_drop_weights` finds it where they weigh the same).
# Each try allocates and totals the whole standing: about 0.3 ms for 40 items, so about 5 ms more
# a student at most there (bench/gradebook_grid.py); it grows with the items.
PLAN_MAX_TRIES = 16


def _every_plan(
    order: list[ItemSpec], categories: list[CategorySpec], facts: StudentFacts
) -> list[dict[str, str]] | None:
    """Every choice of works at the GRACE items that have a choice, where a category that counts
    (weight > 0) drops its lowest items and there are at most PLAN_MAX_TRIES of them; otherwise
    None."""
    if not any(spec.drop_lowest > 0 and spec.weight > 0 for spec in categories):
        return None
    keys, choices = [], []
    for item in order:
        score = facts.scores.get(item.key)
        if score is None or item.key in facts.excused or counts_posted(item, score):
            continue
        keys.append(item.key)
        choices.append(list(dict.fromkeys(work.ref for work in (score, *score.others))))
    if math.prod(len(refs) for refs in choices) > PLAN_MAX_TRIES:
        return None
    return [dict(zip(keys, picked, strict=True)) for picked in itertools.product(*choices)]


# Grace days the whole-course plan searches over at most: its cost is items x days x works per
# student (a review measured 59 ms a student at 1 000 days, 18 s for a 300-student grid). A
# course's budget is a few days; past this many the plan is not searched.
PLAN_MAX_GRACE_DAYS = 30


@dataclass(frozen=True)
class _PlanTable:
    """What `_plan` weighs, worked out once a standing: for each GRACE item, in the order grace
    days are spent, and each number of grace days left there, every work's (grace days it
    spends, fraction counted, ref)."""

    budget: int
    rows: list[tuple[str, list[list[tuple[int, Decimal, str]]]]]


def _plan_table(order: list[ItemSpec], facts: StudentFacts, grace_budget: int) -> _PlanTable | None:
    """None past PLAN_MAX_GRACE_DAYS. ``order``: every item, in the order grace days are spent
    (`_grace_order`)."""
    graced = [
        item
        for item in order
        if item.late_policy == GRACE and item.key in facts.scores and item.key not in facts.excused
    ]  # the others spend no grace days: their results do not depend on the plan
    # More grace days than every work's late days together change nothing (the budget may be
    # set high): the states stop there.
    grace_budget = min(grace_budget, sum(_most_late(item, facts) for item in graced))
    if grace_budget > PLAN_MAX_GRACE_DAYS:
        return None  # the posted works and item by item still count
    rows = []
    for item in graced:
        score = facts.scores[item.key]
        due = facts.due_overrides.get(item.key, item.due_at)
        per_left = []
        for left in range(grace_budget + 1):
            charges = [_charge(item, work, due, left) for work in (score, *score.others)]
            per_left.append(
                [(c.grace_days, c.counted / item.max_points, c.work.ref) for c in charges]
            )
        rows.append((item.key, per_left))
    return _PlanTable(grace_budget, rows)


def _plan(table: _PlanTable, weight: dict[str, Decimal]) -> dict[str, str]:
    """The work to count at each GRACE item that makes the total highest, by dynamic programming
    over (item, grace days left) in the order grace days are spent, where the total is the sum
    of each item's ``weight`` times its fraction (`_weights`). That is the projected total where
    no category drops its lowest items, or where the dropped ones are the ones left out of
    ``weight``."""
    # Per grace days left before the item: the best (total, fractions) of the items from here on,
    # and the works it counts, as a chain of (item key, ref, rest).
    ahead: list[tuple[tuple[Decimal, Decimal], tuple | None]] = [
        ((ZERO, ZERO), None) for _ in range(table.budget + 1)
    ]
    for key, per_left in reversed(table.rows):
        here = []
        for left, charges in enumerate(per_left):
            options = []
            for spent, ratio, ref in charges:
                (total, fractions), rest = ahead[left - spent]
                value = (total + weight[key] * ratio, fractions + ratio)
                options.append((value, -spent, (key, ref, rest)))
            value, _spent, chain = max(options, key=lambda o: (o[0], o[1]))  # first of equals
            here.append((value, chain))
        ahead = here
    refs, chain = {}, ahead[table.budget][1]
    while chain is not None:
        key, ref, chain = chain
        refs[key] = ref
    return refs


def _most_late(item: ItemSpec, facts: StudentFacts) -> int:
    score, due = facts.scores[item.key], facts.due_overrides.get(item.key, item.due_at)
    return max(_days_charged(item, work.submitted_at, due) for work in (score, *score.others))


def _weights(
    items: list[ItemSpec],
    categories: list[CategorySpec],
    facts: StudentFacts,
    dropped: Iterable[str] = (),
) -> dict[str, Decimal]:
    """Each item's share of the projected total per unit of its fraction (counted / max), as
    `_projected_total` weighs it when the ``dropped`` items are the ones its categories drop; 0
    in a category of weight 0, and for a dropped item."""
    specs = {spec.key: spec for spec in categories if spec.weight > 0}
    total_weight = sum((spec.weight for spec in specs.values()), ZERO)
    shares: dict[str, Decimal] = {}
    left_out = facts.excused.union(dropped)
    for key, spec in specs.items():
        members = [i for i in items if i.category == key and i.key not in left_out]
        weight_sum = sum((i.weight for i in members), ZERO)
        for i in members:
            shares[i.key] = (
                spec.weight / total_weight * i.weight / weight_sum if weight_sum else ZERO
            )
    return {i.key: shares.get(i.key, ZERO) for i in items}


def _allocate_in_order(
    order: list[ItemSpec], facts: StudentFacts, grace_budget: int, now: datetime, choose: Chooser
) -> tuple[dict[str, ItemResult], int]:
    """``order``: every item, in the order grace days are spent (`_grace_order`)."""
    results: dict[str, ItemResult] = {}
    grace_left = grace_budget
    for item in order:
        results[item.key], spent = _item_result(item, facts, now, grace_left, choose)
        grace_left -= spent
    return results, grace_left


def _worth(
    categories: list[CategorySpec], items: list[ItemSpec], results: dict[str, ItemResult]
) -> tuple[Decimal, Decimal]:
    """What a set of results is worth to the student, over every item (released or not, so that
    releasing an item never changes the choice): the projected course total (categories of
    weight 0 count nothing in it), then the sum of counted fractions (which decides when no
    category has a weight yet)."""
    total = _projected_total(categories, items, results) or ZERO
    fractions = sum(
        ((r.counted or ZERO) / i.max_points for i in items if (r := results[i.key]).counted),
        ZERO,
    )
    return total, fractions


def _projected_category(spec: CategorySpec, pairs: list[tuple[ItemSpec, ItemResult]]) -> Decimal:
    """A category's percent with every not-yet-graded item at 0 (excused items stay out)."""
    ratios = [
        (item, (res.counted if res.counted is not None else ZERO) / item.max_points)
        for item, res in pairs
        if res.status != EXCUSED
    ]
    ratios.sort(key=lambda pair: (pair[1], pair[0].key))
    kept = ratios[min(max(spec.drop_lowest, 0), max(len(ratios) - 1, 0)) :]
    weight_sum = sum((item.weight for item, _r in kept), ZERO)
    if not kept or weight_sum <= 0:
        return ZERO
    return sum((item.weight * ratio for item, ratio in kept), ZERO) / weight_sum * HUNDRED


def _projected_total(
    specs: list[CategorySpec], shown: list[ItemSpec], results: dict[str, ItemResult]
) -> Decimal | None:
    weighted = [spec for spec in specs if spec.weight > 0]
    total_weight = sum((spec.weight for spec in weighted), ZERO)
    if total_weight <= 0:
        return None
    parts = [
        spec.weight
        * _projected_category(spec, [(i, results[i.key]) for i in shown if i.category == spec.key])
        for spec in weighted
    ]
    return q2(sum(parts, ZERO) / total_weight)
