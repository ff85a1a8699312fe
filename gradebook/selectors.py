"""Reads for the gradebook pages, API and exports. Everything a student may see goes through
`student_standing(..., released_only=True)`; staff reads are reached only through staff views.
"""

from __future__ import annotations

import copy
import dataclasses
import statistics
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import QuerySet
from django.utils import timezone

from accounts.roles import STUDENT
from gradebook import calc, reasons
from gradebook.models import (
    Category,
    Excusal,
    Extension,
    Grade,
    GradebookSettings,
    GradeEvent,
    GradeItem,
    RegradeRequest,
    category_name,
    scores_shown_q,
)
from gradebook.refs import ref_well_formed
from pdcsite import clock

User = get_user_model()


@dataclass
class Course:
    """The course-wide inputs of every standing: items, categories and the grace budget."""

    items: list[GradeItem]
    categories: list[Category]
    grace_days: int
    specs: list[calc.ItemSpec] = field(init=False)
    category_specs: list[calc.CategorySpec] = field(init=False)

    def __post_init__(self) -> None:
        self.specs = [_spec(item) for item in self.items]
        self.category_specs = [
            calc.CategorySpec(c.key, c.weight, c.drop_lowest) for c in self.categories
        ]

    def with_curve(self, key: str, curve: calc.Curve | None) -> Course:
        """The same course with item ``key`` curved by ``curve`` (None: uncurved), for a preview."""
        other = copy.copy(self)
        other.specs = [
            dataclasses.replace(spec, curve=curve) if spec.key == key else spec
            for spec in self.specs
        ]
        return other

    def category_title(self, key: str) -> str:
        """The title of the category ``key`` (configured, else a default one), else the key."""
        return next((c.title for c in self.categories if c.key == key), key)


def _spec(item: GradeItem) -> calc.ItemSpec:
    return calc.ItemSpec(
        key=item.key,
        category=item.category,
        max_points=item.max_points,
        weight=item.weight,
        due_at=item.due_at,
        late_policy=item.late_policy,
        penalty_per_day=item.late_penalty_per_day,
        penalty_cap=item.late_penalty_cap,
        # What a student's standing (released_only) counts: the item's scores shown to students
        # now, so a held item (GradeItem.scores_from) stays out of their totals until it shows.
        released=item.scores_shown(),
        curve=item.curve,
    )


def course_load() -> Course:
    return Course(
        items=list(GradeItem.objects.order_by("due_at", "key")),
        categories=Category.effective(),
        grace_days=GradebookSettings.current().grace_days,
    )


def roster(*, section: str = "") -> QuerySet:
    """Students of the course, optionally one roster section, in student-id order."""
    students = User.objects.filter(groups__name=STUDENT).select_related("profile")
    if section:
        students = students.filter(profile__section=section)
    return students.order_by("profile__student_id", "username").distinct()


def sections() -> list[str]:
    values = roster().exclude(profile__section="").values_list("profile__section", flat=True)
    return sorted(set(values))


def facts_for(student_ids: Iterable[int]) -> dict[int, calc.StudentFacts]:
    """Scores, extended deadlines and excusals of many students in three queries."""
    ids = list(student_ids)
    facts: dict[int, calc.StudentFacts] = defaultdict(calc.StudentFacts)
    # Plain tuples, not model instances: building 10 000 Grade objects was 80 % of the grid's time.
    rows = Grade.objects.filter(student_id__in=ids).values_list(
        "student_id",
        "item__key",
        "points",
        "submitted_at",
        "counted_ref",
        "override_points",
        "candidates",
    )
    for student_id, key, *score in rows:
        facts[student_id].scores[key] = _score(*score)
    for student_id, overrides in _due_overrides(ids).items():
        facts[student_id].due_overrides.update(overrides)
    for exc in Excusal.objects.filter(student_id__in=ids).select_related("item"):
        facts[exc.student_id].excused.add(exc.item.key)
    return facts


def _score(
    points: Decimal,
    submitted_at: datetime | None,
    ref: str,
    override: Decimal | None,
    candidates: list[list],
) -> calc.Score:
    """A Grade row's work as the standing counts it, with the works it may count instead."""
    # A staff override is the item's score, whichever work the student did.
    others = () if override is not None else tuple(map(calc.Score.from_json, candidates))
    return calc.Score(points, submitted_at, ref, others)


def _due_overrides(
    student_ids: list[int], keys: Iterable[str] | None = None
) -> dict[int, dict[str, datetime]]:
    """Each student's extended due dates by item key (`Extension.effective_due`): what lateness
    is judged against, and so the date every page shows that student."""
    exts = Extension.objects.filter(student_id__in=student_ids).select_related("item")
    if keys is not None:
        exts = exts.filter(item__key__in=list(keys))
    overrides: dict[int, dict[str, datetime]] = defaultdict(dict)
    for ext in exts:
        due = ext.effective_due()
        if due is not None:
            overrides[ext.student_id][ext.item.key] = due
    return overrides


def extended_dues(student: AbstractBaseUser, keys: Iterable[str]) -> dict[str, datetime]:
    """The student's own due dates of those items (keys) staff extended for them; other apps show
    these in place of their own due date."""
    return _due_overrides([student.pk], keys).get(student.pk, {})


def late_rules(
    student_ids: Iterable[int], keys: Iterable[str]
) -> dict[tuple[int, str], calc.LateRule]:
    """The lateness rule the gradebook charges each student by on each item (the item's policy,
    the student's own due date), by (student id, item key), in two queries; items that do not
    exist are left out."""
    ids = list(student_ids)
    specs = {item.key: _spec(item) for item in GradeItem.objects.filter(key__in=list(keys))}
    overrides = _due_overrides(ids, specs)
    return {
        (student_id, key): calc.LateRule(spec, overrides.get(student_id, {}).get(key, spec.due_at))
        for student_id in ids
        for key, spec in specs.items()
    }


def late_rule(student: AbstractBaseUser, key: str) -> calc.LateRule | None:
    """`late_rules` of one student on one item; None when there is no such item."""
    return late_rules([student.pk], [key]).get((student.pk, key))


def standing(course: Course, facts: calc.StudentFacts, *, released_only: bool) -> calc.Standing:
    return calc.compute_standing(
        items=course.specs,
        categories=course.category_specs,
        facts=facts,
        grace_budget=course.grace_days,
        now=timezone.now(),
        released_only=released_only,
    )


# --- The student's own page, API and CSV ---------------------------------------------------------


@dataclass
class StudentRow:
    item: GradeItem
    result: calc.ItemResult | None  # None: the item's scores are not shown (yet): nothing of it
    status: str
    category_title: str = ""  # the title of the item's category, for category_name
    # The student's own deadline (extended or not), shown released or not.
    due_at: datetime | None = None
    extended: bool = False
    override_reason: str = ""
    open_regrades: int = 0


def student_status(shown: bool, result: calc.ItemResult) -> str:
    """not_started / missing / submitted (score not shown yet) / released / excused. ``shown``:
    the item's `scores_shown()` (released, and past any hold)."""
    if result.status == calc.GRADED:
        return "released" if shown else "submitted"
    if result.status == calc.MISSING and not shown:
        return "not_started"  # an unshown item says nothing, not even "missing"
    return result.status


def student_view(student: AbstractBaseUser) -> dict:
    """What 我的成绩 shows: released scores with penalties, hidden ones as status only, totals."""
    course = course_load()
    mine = standing(course, facts_for([student.pk])[student.pk], released_only=True)
    grades = {g.item_id: g for g in Grade.objects.visible_to(student).filter(student=student)}
    open_counts: dict[int, int] = defaultdict(int)
    for item_id in (
        RegradeRequest.objects.visible_to(student)
        .filter(student=student, status=RegradeRequest.Status.OPEN)
        .values_list("item_id", flat=True)
    ):
        open_counts[item_id] += 1
    rows = []
    for item in course.items:
        result = mine.items[item.key]
        grade = grades.get(item.pk)
        shown = item.scores_shown()  # released, and past any hold (GradeItem.scores_from)
        rows.append(
            StudentRow(
                item=item,
                result=result if shown else None,
                status=student_status(shown, result),
                category_title=course.category_title(item.category),
                due_at=result.due_at,
                extended=result.extended,
                override_reason=grade.override_reason if grade else "",
                open_regrades=open_counts[item.pk],
            )
        )
    by_key = {item.key: item for item in course.items}
    # The dropped items by their titles: the calculation names them by key (quiz:3), an internal id.
    categories = [
        (course.category_title(c.key), c, [by_key[key] for key in c.dropped])
        for c in mine.categories
        if c.counted_items or c.weight
    ]
    return {"rows": rows, "categories": categories, "standing": mine}


def _s(value: Decimal | None) -> str | None:
    """Decimals as strings in JSON, so 7.10 stays exact (a float would not)."""
    return None if value is None else str(value)


def student_api_payload(student: AbstractBaseUser) -> dict:
    view = student_view(student)
    items = []
    for row in view["rows"]:
        res = row.result
        curve = calc.curve_text(row.item.curve, res) if res else ""
        items.append(
            {
                "key": row.item.key,
                "title": row.item.title,
                "title_en": row.item.title_en,  # "" when staff gave none (quizzes may lack one)
                "category": row.item.category,
                "max_points": _s(row.item.max_points),
                "due_at": row.due_at,
                "status": row.status,
                "points": _s(res.raw) if res else None,
                "late_penalty_percent": _s(res.penalty_percent) if res else None,
                "grace_days_used": res.grace_days if res else None,
                "counted": _s(res.counted) if res else None,
                # The item's curve ("+5", "×1.1") and what it moved this score by; both null where
                # it moved none (no curve, or the item missing or excused: calc.curve_text).
                "curve": curve or None,
                "curve_points": _s(res.curve_points) if res and curve else None,
                "dropped": res.dropped if res else None,
                # A system reason (a regrade answer) in the request's language, like the page.
                "override_reason": reasons.shown(row.override_reason) if res else "",
            }
        )
    standing_ = view["standing"]
    return {
        "items": items,
        "categories": [
            {"key": c.key, "title": title, "weight": _s(c.weight), "percent": _s(c.percent)}
            for title, c, _dropped in view["categories"]
        ],
        "total_percent": _s(standing_.total_percent),
        "projected_percent": _s(standing_.projected_percent),
        "grace_days": {"budget": standing_.grace_budget, "used": standing_.grace_used},
    }


# --- Staff reads ---------------------------------------------------------------------------------


@dataclass
class GridRow:
    student: AbstractBaseUser
    cells: list[calc.ItemResult]
    categories: dict[str, Decimal | None]
    total: Decimal | None
    projected: Decimal | None = None


def grid(*, category: str = "", item_id: int | None = None, section: str = "") -> dict:
    """Students × items for staff, filtered by category, one item, or roster section."""
    course = course_load()
    items = [
        i
        for i in course.items
        if (not category or i.category == category) and (not item_id or i.pk == item_id)
    ]
    students = list(roster(section=section))
    facts = facts_for(s.pk for s in students)
    rows = []
    for student in students:
        st = standing(course, facts[student.pk], released_only=False)
        rows.append(
            GridRow(
                student=student,
                cells=[st.items[i.key] for i in items],
                categories={c.key: c.percent for c in st.categories},
                total=st.total_percent,
                projected=st.projected_percent,
            )
        )
    keys = sorted({i.category for i in course.items} | {c.key for c in course.categories})
    category_choices = [(key, category_name(key, course.category_title(key))) for key in keys]
    return {"items": items, "rows": rows, "course": course, "category_choices": category_choices}


@dataclass
class ItemSummary:
    graded: int
    missing: int
    excused: int
    pending: int  # not yet due and not submitted
    mean: Decimal | None
    median: Decimal | None
    minimum: Decimal | None
    maximum: Decimal | None
    percents: list[Decimal]
    category_title: str  # the title of the item's category, for category_name


def item_summary(
    item: GradeItem, course: Course | None = None
) -> tuple[ItemSummary, list[tuple[AbstractBaseUser, calc.ItemResult]]]:
    """Counted points of one item over the roster, with mean / median / missing counts; in
    ``course`` when given (a preview's: `curve_preview`)."""
    course = course or course_load()
    students = list(roster())
    facts = facts_for(s.pk for s in students)
    results = [
        (s, standing(course, facts[s.pk], released_only=False).items[item.key]) for s in students
    ]
    graded = [r.counted for _s, r in results if r.status == calc.GRADED]
    counts = defaultdict(int)
    for _s, r in results:
        counts[r.status] += 1

    def stat(fn) -> Decimal | None:
        return calc.q2(Decimal(fn(graded))) if graded else None

    summary = ItemSummary(
        graded=counts[calc.GRADED],
        missing=counts[calc.MISSING],
        excused=counts[calc.EXCUSED],
        pending=counts[calc.NOT_STARTED],
        mean=stat(lambda xs: sum(xs) / len(xs)),
        median=stat(statistics.median),
        minimum=stat(min),
        maximum=stat(max),
        percents=[calc.q2(p / item.max_points * calc.HUNDRED) for p in graded],
        category_title=course.category_title(item.category),
    )
    return summary, results


@dataclass(frozen=True)
class CurvePreview:
    """What a curve would do to an item, before staff save it: its summary now and with it."""

    curve: calc.Curve | None  # None: the curve removed
    before: ItemSummary
    after: ItemSummary
    moved: int  # students whose counted score it changes


def curve_preview(item: GradeItem, curve: calc.Curve | None) -> CurvePreview:
    course = course_load()
    before, now = item_summary(item, course)
    after, then = item_summary(item, course.with_curve(item.key, curve))
    moved = sum(1 for (_s, a), (_t, b) in zip(now, then, strict=True) if a.counted != b.counted)
    return CurvePreview(curve, before, after, moved)


def curve_version(item: GradeItem, events: Iterable[GradeEvent] | None = None) -> str:
    """What an item's curve page is loaded over: the curve in force and its last audited write,
    "+5#17" ("#0" before any). The curve alone ("+5") let a stale page overwrite another's new
    reason for the same +5, or remove a +5 someone had removed and set again (a review).
    ``events``: the item's `curve_events` where the caller has read them (its staff page lists
    them), so they are not read twice."""
    # The highest pk, not the newest `at`: every write adds a row, whatever the writer's clock.
    if events is None:
        last = curve_events(item).order_by("-pk").values_list("pk", flat=True).first()
    else:
        last = max((event.pk for event in events), default=0)
    return f"{item.curve or ''}#{last or 0}"


def curve_events(item: GradeItem) -> QuerySet:
    """The item's curve history, newest first, for its staff page."""
    curve_actions = [
        GradeEvent.Action.CURVE_SET,
        GradeEvent.Action.CURVE_CHANGE,
        GradeEvent.Action.CURVE_REMOVE,
    ]
    events = GradeEvent.objects.filter(item=item, action__in=curve_actions)
    return events.select_related("actor").order_by("-at", "-pk")


def histogram(percents: list[Decimal], *, bins: int = 10) -> list[int]:
    """Counts per 10-percent bin (the last bin includes 100 %)."""
    counts = [0] * bins
    for p in percents:
        counts[min(int(p * bins / calc.HUNDRED), bins - 1)] += 1
    return counts


def student_detail(student: AbstractBaseUser) -> dict:
    course = course_load()
    facts = facts_for([student.pk])[student.pk]
    st = standing(course, facts, released_only=False)
    grades = {g.item_id: g for g in Grade.objects.filter(student=student)}
    extensions = {e.item_id: e for e in Extension.objects.filter(student=student)}
    excusals = {e.item_id: e for e in Excusal.objects.filter(student=student)}
    rows = [
        {
            "item": item,
            "result": st.items[item.key],
            "grade": grades.get(item.pk),
            "extension": extensions.get(item.pk),
            "excusal": excusals.get(item.pk),
        }
        for item in course.items
    ]
    events = (
        GradeEvent.objects.filter(student=student)
        .select_related("item", "actor")
        .order_by("-at", "-pk")
    )
    return {
        "student": student,
        "rows": rows,
        "standing": st,
        "categories": [(course.category_title(c.key), c) for c in st.categories],
        "events": events,
        "regrades": RegradeRequest.objects.filter(student=student).select_related("item"),
    }


@dataclass(frozen=True)
class RecentGrade:
    """One of the student's latest released grades, as 我的成绩 counts it."""

    item: GradeItem
    result: calc.ItemResult  # counted: after the late penalty and the item's curve
    computed_at: datetime


def recent_grades(student: AbstractBaseUser, limit: int) -> list[RecentGrade]:
    """The student's `limit` latest released grades, newest first, each with what counts. The
    home page showed the Grade row's raw points: 60 where the gradebook counts 65 with a curve
    +5, or 54 after a late penalty."""
    grades = list(
        Grade.objects.visible_to(student)
        .owned_by(student)
        .filter(scores_shown_q(clock.now(), "item__"))
        .select_related("item")
        .order_by("-computed_at")[:limit]
    )
    if not grades:
        return []  # staff and new students: no standing to compute
    mine = standing(course_load(), facts_for([student.pk])[student.pk], released_only=True)
    return [
        RecentGrade(g.item, mine.items[g.item.key], g.computed_at)
        for g in grades
        if mine.items[g.item.key].status == calc.GRADED  # an excused item counts nothing
    ]


def item_result(student: AbstractBaseUser, item: GradeItem) -> calc.ItemResult:
    """The student's result on ``item`` as their standing counts it (released or not): under a
    GRACE policy the work chosen with the grace days left there, which the Grade row cannot say."""
    facts = facts_for([student.pk])[student.pk]
    return standing(course_load(), facts, released_only=False).items[item.key]


@dataclass(frozen=True)
class GradeNote:
    """What the gradebook counts for an item where the page of one work shows another score."""

    item: GradeItem
    points: Decimal  # the item's score in the gradebook (the raw one, before a late penalty)
    overridden: bool  # a staff override of the item is in force
    reason: str  # the override's reason as stored ("" when none)
    counted_ref: str  # the work that counts when it is another one, else ""
    differs: bool = True  # ``points`` is not the score the work's page shows
    # Where the item's curve moved what counts: the counted score (after the late penalty and the
    # curve) and the curve as the pages write it ("+5"); else None and "".
    counted: Decimal | None = None
    curve: str = ""


def grade_note(
    viewer: AbstractBaseUser,
    student: AbstractBaseUser,
    item_key: str,
    ref: str,
    shown: Decimal | None,
) -> GradeNote | None:
    """The gradebook's score of ``student`` on the item ``item_key`` when it differs from
    ``shown``, the score the page of their work ``ref`` shows: a staff override of the item, or
    another of their works counting. Only to the student and staff (`Grade.objects.visible_to`),
    and only once the item's scores are released (a student never sees an unreleased score, so
    their work's page says nothing of one to staff either); None when there is nothing to say."""
    grade = (
        Grade.objects.visible_to(viewer)
        .filter(student=student, item__key=item_key, item__released=True)
        .select_related("item")
        .first()
    )
    if grade is None or shown is None:
        return None
    if grade.item.curve is not None:
        return _curved_note(student, grade, ref, shown)
    counted = _counted_work(student, grade)
    if counted is None or counted.points == shown:
        return None
    return _note_on(grade, counted, ref)


def _note_on(grade: Grade, work: calc.Score, ref: str, **curved) -> GradeNote:
    """The note on ``grade``'s item whose counted work is ``work``, on the page of ``ref``."""
    overridden = grade.override_points is not None
    return GradeNote(
        item=grade.item,
        points=work.points,
        overridden=overridden,
        reason=grade.override_reason if overridden else "",
        counted_ref="" if overridden or work.ref == ref else work.ref,
        **curved,
    )


def _curved_note(
    student: AbstractBaseUser, grade: Grade, ref: str, shown: Decimal
) -> GradeNote | None:
    """The note where the item has a curve: what counts is then the curved score, which no work's
    page shows, so it comes from the standing (calc.py: the penalty, then the curve)."""
    result = item_result(student, grade.item)
    moved = result.status == calc.GRADED and result.curve_points != 0
    if result.status != calc.GRADED or (result.raw == shown and not moved):
        return None
    return _note_on(
        grade,
        calc.Score(result.raw, ref=result.ref),
        ref,
        differs=result.raw != shown,
        counted=result.counted if moved else None,
        curve=calc.curve_text(grade.item.curve, result) if moved else "",
    )


def _counted_work(student: AbstractBaseUser, grade: Grade) -> calc.Score | None:
    """The work (raw points, ref) the student's standing counts on ``grade``'s item; None when the
    item is excused. From the grade row where the item counts the posted work whatever the rest
    of the course (calc.counts_posted), so a work's page does not compute the whole standing
    (every item, several queries) for one item; from the standing where it does not."""
    posted = _score(
        grade.points, grade.submitted_at, grade.counted_ref, grade.override_points, grade.candidates
    )
    if calc.counts_posted(_spec(grade.item), posted):
        excused = Excusal.objects.filter(student=student, item=grade.item).exists()
        return None if excused else posted
    result = item_result(student, grade.item)
    return calc.Score(result.raw, ref=result.ref) if result.status == calc.GRADED else None


def current_grade(student: AbstractBaseUser, item: GradeItem) -> Grade | None:
    """The student's gradebook row for ``item`` (released or not), for staff deciding on it."""
    return Grade.objects.filter(student=student, item=item).first()


def open_regrade(student: AbstractBaseUser, item: GradeItem, ref: str) -> RegradeRequest | None:
    """The student's open request about one work of the item (ref stripped), if any: a work has
    one open request at a time. None for a ref no work has (`ref_well_formed`)."""
    if not ref_well_formed(ref := ref.strip()):
        return None
    return RegradeRequest.objects.filter(
        student=student, item=item, ref=ref, status=RegradeRequest.Status.OPEN
    ).first()


def regrade_queue(*, status: str = RegradeRequest.Status.OPEN) -> QuerySet:
    queue = RegradeRequest.objects.select_related("student__profile", "item")
    return queue.filter(status=status).order_by("created_at", "pk") if status else queue
