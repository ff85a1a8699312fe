"""Reads of the lab: what a user may see, queue positions, worker status, history, leaderboard."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count, F, Max, Q
from django.utils import timezone

from gradebook.selectors import extended_dues
from gradinglab import conf
from gradinglab.models import (
    Assignment,
    GradingJob,
    Problem,
    Submission,
    WorkerNode,
    effective_score_expr,
)

# An assignment with no due date stays open, so it counts as due last. Said explicitly: PostgreSQL
# sorts NULL first in a descending order and SQLite (`make run`) last.
LATEST_DUE_FIRST = (F("due_at").desc(nulls_first=True), "-pk")


def open_assignment_for(user, slug: str, assignment_id: int | None = None) -> Assignment | None:
    """The assignment a submission of problem `slug` goes to (CLI and problem page): the given one,
    else the latest due the user may see."""
    qs = Assignment.objects.visible_to(user).filter(problem__slug=slug).select_related("problem")
    if assignment_id is not None:
        return qs.filter(pk=assignment_id).first()
    return qs.order_by(*LATEST_DUE_FIRST).first()


def queue_position(submission: Submission) -> int | None:
    """1 = next to be picked up; None once a worker has it."""
    if submission.status != Submission.Status.QUEUED:
        return None
    mine = (
        GradingJob.objects.filter(submission=submission, round=submission.round, superseded=False)
        .order_by("-enqueued_at")
        .first()
    )
    if mine is None:
        return None
    ahead = GradingJob.objects.filter(
        queue=mine.queue,
        started_at__isnull=True,
        finished_at__isnull=True,
        superseded=False,
        enqueued_at__lt=mine.enqueued_at,
        submission__status=Submission.Status.QUEUED,
    ).count()
    return ahead + 1


def personal_dues(user, assignments: list[Assignment]) -> dict[int, datetime]:
    """The user's own due date of each assignment staff extended for them, by assignment pk: the
    gradebook decides lateness (`gradebook.selectors.extended_dues`), so the lab shows its date."""
    by_key = {a.grade_item_key: a.pk for a in assignments}
    return {by_key[key]: due for key, due in extended_dues(user, by_key).items()}


@dataclass(frozen=True)
class AssignmentRow:
    assignment: Assignment
    attempts: int
    best: Decimal | None
    last_status: str | None
    due_at: datetime | None  # the user's own: the assignment's, or their extension's
    extended: bool

    @property
    def late_until(self) -> datetime | None:
        return self.assignment.late_until_for(self.due_at)


def lab_index(user) -> list[AssignmentRow]:
    assignments = Assignment.objects.visible_to(user).select_related("problem")
    mine = (
        Submission.objects.owned_by(user)
        .values("assignment_id")
        .annotate(
            attempts=Count("pk", filter=Q(counts_as_attempt=True)),
            best=Max(effective_score_expr()),  # a TA's override stands
        )
    )
    stats = {row["assignment_id"]: row for row in mine}
    last = {}  # a run of the public tests is no submission: its verdict is not "my status"
    for sub in Submission.objects.owned_by(user).filter(practice=False).order_by("created_at"):
        last[sub.assignment_id] = sub.status
    ordered = sorted(assignments.order_by("due_at", "pk"), key=_course_order)
    extended = personal_dues(user, ordered)
    return [
        AssignmentRow(
            a,
            stats.get(a.pk, {}).get("attempts", 0),
            stats.get(a.pk, {}).get("best"),
            last.get(a.pk),
            extended.get(a.pk, a.due_at),
            a.pk in extended,
        )
        for a in ordered
    ]


# The exercises in the order the course sets them (easiest first, as the lab handout numbers them);
# a problem not listed follows them, by its first practised section.
COURSE_ORDER = (
    "vector-add",
    "sum-reduction",
    "histogram",
    "transpose",
    "softmax",
    "layernorm",
    "matmul",
    "conv2d",
    "flash-attention",
)


def _course_order(assignment: Assignment) -> tuple[int, int, int]:
    slug = assignment.problem.slug
    if slug in COURSE_ORDER:
        return COURSE_ORDER.index(slug), 0, 0
    for anchor in assignment.problem.sections or []:
        parts = anchor.split("-")
        # isascii() too: "sec-²-1" is a digit to isdigit() and a ValueError to int().
        if len(parts) == 3 and all(p.isascii() and p.isdigit() for p in parts[1:]):
            return len(COURSE_ORDER), int(parts[1]), int(parts[2])
    return len(COURSE_ORDER), 999, 999  # the sort is stable: then by due date


def assignments_of_problem(user, problem: Problem) -> list[Assignment]:
    """Every assignment of one problem the user may see, latest due first: a course may set one
    problem more than once (on the CPU path and on a GPU, or as practice and as homework)."""
    return list(
        Assignment.objects.visible_to(user)
        .filter(problem=problem)
        .select_related("problem")
        .order_by(*LATEST_DUE_FIRST)
    )


def submissions_of(user, assignment: Assignment) -> list[Submission]:
    return list(
        Submission.objects.visible_to(user)
        .filter(assignment=assignment, student=user)
        .order_by("-created_at", "-pk")
    )


def workers_status() -> list[dict[str, Any]]:
    cutoff = timezone.now() - timedelta(seconds=conf.WORKER_ONLINE_S)
    rows = []
    for node in WorkerNode.objects.filter(active=True):
        online = node.last_heartbeat_at is not None and node.last_heartbeat_at >= cutoff
        rows.append({"name": node.name, "kind": node.kind, "online": online, "node": node})
    return rows


def reap_due() -> bool:
    """True at most once per REAP_INTERVAL_S across the site (cache add is atomic)."""
    return cache.add("gradinglab:reap", "1", timeout=conf.REAP_INTERVAL_S)


def source_diff(a: Submission, b: Submission) -> str:
    return "".join(
        difflib.unified_diff(
            a.source.splitlines(keepends=True),
            b.source.splitlines(keepends=True),
            fromfile=f"#{a.pk}",
            tofile=f"#{b.pk}",
        )
    )


def chart_series(submissions: list[Submission]) -> dict[str, list]:
    ordered = sorted(submissions, key=lambda s: (s.created_at, s.pk))
    return {
        "labels": [f"#{s.pk}" for s in ordered],
        "median_ms": [s.median_ms for s in ordered],
        "speedup": [s.speedup for s in ordered],
        "roofline_pct": [
            None if s.roofline_fraction is None else round(100 * s.roofline_fraction, 2)
            for s in ordered
        ],
        "score": [None if s.score is None else float(s.score) for s in ordered],
    }


def leaderboard(problem: Problem, kind: str) -> list[dict[str, Any]]:
    """Best time per opted-in student (pseudonym set) on one GPU kind, of the runs that may be
    ranked: accepted and unflagged, or judged by a TA (flagreview.selectors.leaderboard_eligible)."""
    from flagreview.selectors import leaderboard_eligible  # the app above the lab owns the verdicts

    rows = (
        leaderboard_eligible(
            Submission.objects.filter(
                assignment__problem=problem, assignment__gpu_kind=kind, median_ms__isnull=False
            )
        )
        .exclude(student__profile__pseudonym="")
        .exclude(student__profile__isnull=True)
        .select_related("student__profile")
        .order_by("median_ms", "created_at")
    )
    best: dict[int, dict[str, Any]] = {}
    for sub in rows:
        if sub.student_id in best:
            continue
        best[sub.student_id] = {
            "pseudonym": sub.student.profile.pseudonym,
            "median_ms": sub.median_ms,
            "speedup": sub.speedup,
            "roofline_pct": None
            if sub.roofline_fraction is None
            else round(100 * sub.roofline_fraction, 1),
            "device": sub.device_name,
            "at": sub.created_at,
        }
    return list(best.values())


def leaderboard_kinds(problem: Problem) -> list[str]:
    return sorted({k for k in problem.assignments.values_list("gpu_kind", flat=True) if k})
