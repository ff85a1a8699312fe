"""Reads of the staff desk: what needs attention across the course, and everything about one
person. The top of the app graph (it reads accounts, gradebook, quizzes and gradinglab; nothing
imports it), so no app below has to know about the others."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone

from accounts.roles import role_of
from flagreview.selectors import open_count as open_flag_count
from gradebook.models import Excusal, Extension, GradeItem, RegradeRequest
from gradinglab.models import Assignment, GradingJob, Submission
from gradinglab.selectors import workers_status
from quizzes.models import Attempt, Quiz
from quizzes.selectors import late_attempt_ids

LIST_MAX = 20  # rows per panel; the count says how many there are in all
CLOSING_DAYS = 7  # "closing this week": close time within the next 7 days


@dataclass
class Panel:
    count: int
    rows: list


def _panel(queryset) -> Panel:
    return Panel(queryset.count(), list(queryset[:LIST_MAX]))


def stuck_jobs(now=None):
    """Current jobs past the reaper's limits: running without a sign of life for
    RUNNING_STUCK_S, or queued and never started for QUEUED_STUCK_S (seconds, gradinglab.conf)."""
    return (
        GradingJob.objects.filter(
            finished_at__isnull=True,
            superseded=False,
            submission__status__in=Submission.PENDING,
        )
        .stuck(now or timezone.now())
        .select_related("submission__student", "submission__assignment__problem", "worker")
        .order_by("enqueued_at")
    )


def dashboard() -> dict:
    now = timezone.now()
    workers = workers_status()
    return {
        "regrades": _panel(
            RegradeRequest.objects.filter(status=RegradeRequest.Status.OPEN)
            .select_related("student__profile", "item")
            .order_by("created_at")
        ),
        "flagged": _panel(
            Submission.objects.filter(flagged=True)
            .select_related("student__profile", "assignment__problem")
            .order_by("-created_at")
        ),
        "stuck": _panel(stuck_jobs(now)),
        "unchecked": _panel(
            Assignment.objects.published_unchecked().select_related("problem").order_by("due_at")
        ),
        "open_flags": open_flag_count(),  # flagged or rejected results with no TA verdict yet
        "offline": [w for w in workers if not w["online"]],
        "workers_total": len(workers),
        "closing": _panel(
            Quiz.objects.filter(
                kind=Quiz.Kind.GRADED,
                published=True,
                closes_at__gte=now,
                closes_at__lt=now + timedelta(days=CLOSING_DAYS),
            ).order_by("closes_at")
        ),
        "hidden": _panel(GradeItem.objects.filter(released=False).order_by("due_at", "key")),
        "drafts": _panel(
            Quiz.objects.filter(kind=Quiz.Kind.GRADED, published=False).order_by("-created_at")
        ),
    }


def person(user: AbstractBaseUser) -> dict:
    """Everything about one person on the roster, for the page that links it all."""
    attempts = list(
        Attempt.objects.owned_by(user).select_related("quiz").order_by("-started_at")[:50]
    )
    return {
        "person": user,
        "role": role_of(user),
        "profile": getattr(user, "profile", None),
        "attempts": attempts,
        "late_attempts": late_attempt_ids(attempts),
        "submissions": Submission.objects.owned_by(user)
        .select_related("assignment__problem")
        .order_by("-created_at")[:50],
        "regrades": RegradeRequest.objects.owned_by(user).select_related("item"),
        "extensions": Extension.objects.owned_by(user).select_related("item"),
        "excusals": Excusal.objects.owned_by(user).select_related("item"),
    }
