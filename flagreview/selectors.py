"""Reads of flag review: which results are cases, one case with its evidence, the open queue, and
the leaderboard's rule (nothing unresolved, nothing hidden).

A case is a finished, graded (not practice) submission whose current round is flagged, rejected,
or failed because its outputs changed during the timed calls. Access: `Submission.visible_to`
(the lab's one check: staff see all, a student only their own) for every read here.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404

from flagreview import evidence
from flagreview.models import FlagResponse, FlagVerdict
from gradinglab.models import Submission, SubmissionResult
from gradinglab.scoring import document_points

QUEUE_MAX = 200  # rows on the staff queue page; a course has far fewer open flags at once


@dataclass(frozen=True)
class Case:
    submission: Submission
    doc: dict[str, Any]
    items: list[evidence.Item]
    figures: evidence.Figures
    response: FlagResponse | None
    verdict: FlagVerdict | None
    suggested_points: Decimal | None  # what the run earns if its result is accepted as measured

    @property
    def is_open(self) -> bool:
        return self.verdict is None

    @property
    def flagged_by_staff(self) -> bool:
        return _flagged_by_staff(self.submission)

    @property
    def can_respond(self) -> bool:
        return self.response is None and self.verdict is None


def _timed_output_failure() -> Exists:
    return Exists(
        SubmissionResult.objects.filter(
            submission=OuterRef("pk"),
            round=OuterRef("round"),
            document__message__startswith="wrong result during timed calls",
        )
    )


def case_filter(queryset: QuerySet[Submission]) -> QuerySet[Submission]:
    """The submissions of `queryset` that are cases (see the module docstring)."""
    return (
        queryset.filter(practice=False)
        .exclude(status__in=Submission.PENDING)
        .filter(
            Q(flagged=True)
            | Q(status=Submission.Status.REJECTED)
            | (Q(status=Submission.Status.WRONG_ANSWER) & _timed_output_failure())
        )
    )


def _flagged_by_staff(sub: Submission) -> bool:
    return sub.flagged and sub.flagged_by == Submission.FlaggedBy.STAFF


def _this_round(model, sub: Submission):
    return model.objects.filter(submission=sub, round=sub.round).first()


def _suggested(sub: Submission, doc: dict[str, Any]) -> Decimal | None:
    if not doc.get("tests") or not all(t.get("passed") for t in doc["tests"]):
        return None
    assignment = sub.assignment
    return document_points(
        {**doc, "status": "accepted"},
        assignment.problem.scoring,
        points=assignment.points,
        cpu_only=not assignment.gpu_kind,
    )


def case_of(sub: Submission) -> Case | None:
    """The case of a submission the caller may already see, or None when it is not one."""
    if not case_filter(Submission.objects.filter(pk=sub.pk)).exists():
        return None
    doc = sub.result or {}
    flag_reason = sub.flag_reason if sub.flagged else ""
    items = evidence.items_for(doc, flag_reason, by_staff=_flagged_by_staff(sub))
    return Case(
        submission=sub,
        doc=doc,
        items=items,
        figures=evidence.figures_for(doc, items),
        response=_this_round(FlagResponse, sub),
        verdict=_this_round(FlagVerdict, sub),
        suggested_points=_suggested(sub, doc),
    )


def case_get(user: AbstractBaseUser, pk: int) -> Case:
    """One case, through the lab's access check: someone else's submission is a 404."""
    sub = (
        Submission.objects.visible_to(user)
        .select_related("assignment__problem", "student__profile")
        .filter(pk=pk)
        .first()
    )
    case = case_of(sub) if sub is not None else None
    if case is None:
        raise Http404("no flagged or rejected result here")
    return case


def open_cases() -> list[Case]:
    """Cases with no verdict on their current round; answered ones first, then the oldest."""
    decided = FlagVerdict.objects.filter(submission=OuterRef("pk"), round=OuterRef("round"))
    answered = FlagResponse.objects.filter(submission=OuterRef("pk"), round=OuterRef("round"))
    rows = (
        case_filter(Submission.objects.all())
        .annotate(decided=Exists(decided), answered=Exists(answered))
        .filter(decided=False)
        .select_related("assignment__problem", "student__profile")
        .order_by("-answered", "created_at", "pk")[:QUEUE_MAX]
    )
    return [case for case in (case_of(sub) for sub in rows) if case is not None]


def open_count() -> int:
    decided = FlagVerdict.objects.filter(submission=OuterRef("pk"), round=OuterRef("round"))
    return case_filter(Submission.objects.all()).filter(~Exists(decided)).count()


def leaderboard_eligible(queryset: QuerySet[Submission]) -> QuerySet[Submission]:
    """What the leaderboard may rank: accepted and unflagged, or judged by a TA to stand; never
    an unresolved flag or rejection, never what a TA hid (verdicts of the current round)."""
    verdict = FlagVerdict.objects.filter(submission=OuterRef("pk"), round=OuterRef("round"))
    accepted = Q(status=Submission.Status.ACCEPTED)
    D = FlagVerdict.Decision
    return queryset.annotate(_verdict=Subquery(verdict.values("decision")[:1])).filter(
        Q(_verdict=D.RESTORE)
        | (accepted & Q(_verdict=D.KEEP))
        | (accepted & Q(flagged=False, _verdict__isnull=True))
    )
