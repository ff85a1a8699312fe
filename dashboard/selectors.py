"""What the home page shows a signed-in user: what is due next, reading progress, recent grades
and feedback, and the current announcements. Reads only; each list goes through its app's own
`visible_to` access check."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext, ngettext

from accounts.language import page_lang
from dashboard.models import Announcement

HORIZON_DAYS = 21  # days ahead the "due next" list looks; further deadlines are on each app's page
DUE_LIMIT = 6  # rows in "due next"
RECENT_LIMIT = 5  # rows in "recent grades" and in "feedback"


@dataclass(frozen=True)
class DueItem:
    kind: str  # "quiz" or "lab", for the label and the icon
    title: str
    url: str
    due_at: datetime
    done: bool  # the student has already handed something in
    time_left: str


def time_left_label(delta: timedelta) -> str:
    """ "2 天 3 小时" / "5 小时 10 分" / "12 分": rounded down, so it never promises more time."""
    seconds = max(0, int(delta.total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    if days:
        return ngettext("%(d)d 天", "%(d)d 天", days) % {"d": days} + (
            " " + ngettext("%(h)d 小时", "%(h)d 小时", hours) % {"h": hours} if hours else ""
        )
    if hours:
        return ngettext("%(h)d 小时", "%(h)d 小时", hours) % {"h": hours} + (
            " " + ngettext("%(m)d 分钟", "%(m)d 分钟", minutes) % {"m": minutes} if minutes else ""
        )
    return ngettext("%(m)d 分钟", "%(m)d 分钟", minutes) % {"m": minutes}


def due_next(user, *, now: datetime | None = None) -> list[DueItem]:
    from gradinglab.models import Assignment, Submission
    from quizzes.models import Attempt, Quiz

    now = now or timezone.now()
    until = now + timedelta(days=HORIZON_DAYS)
    items: list[DueItem] = []
    quizzes = Quiz.objects.visible_to(user).filter(
        kind=Quiz.Kind.GRADED, closes_at__gt=now, closes_at__lte=until
    )
    done_quizzes = set(
        Attempt.objects.visible_to(user)
        .owned_by(user)
        .filter(state=Attempt.State.SUBMITTED)
        .values_list("quiz_id", flat=True)
    )
    for quiz in quizzes:
        items.append(
            DueItem(
                "quiz",
                quiz.shown_title,
                reverse("quizzes:detail", args=[quiz.slug]),
                quiz.closes_at,
                quiz.pk in done_quizzes,
                time_left_label(quiz.closes_at - now),
            )
        )
    labs = (
        Assignment.objects.visible_to(user)
        .filter(due_at__gt=now, due_at__lte=until)
        .select_related("problem")
    )
    done_labs = set(
        Submission.objects.visible_to(user)
        .owned_by(user)
        .filter(practice=False)
        .values_list("assignment_id", flat=True)
    )
    for lab in labs:
        items.append(
            DueItem(
                "lab",
                lab.name_for(page_lang()),
                lab.get_absolute_url(),
                lab.due_at,
                lab.pk in done_labs,
                time_left_label(lab.due_at - now),
            )
        )
    return sorted(items, key=lambda i: i.due_at)[:DUE_LIMIT]


@dataclass(frozen=True)
class Reading:
    read: int
    total: int
    next_lecture: object | None  # the first lecture not read to the end

    @property
    def percent(self) -> int:
        return round(100 * self.read / self.total) if self.total else 0


def reading(user) -> Reading:
    from lectures.selectors import lecture_list_with_progress

    rows = lecture_list_with_progress(user=user)
    unread = next((r.lecture for r in rows if r.total and r.read < r.total), None)
    return Reading(sum(r.read for r in rows), sum(r.total for r in rows), unread)


def recent_grades(user) -> list:
    from gradebook.selectors import recent_grades as counted

    return counted(user, RECENT_LIMIT)


@dataclass(frozen=True)
class Feedback:
    title: str
    text: str
    url: str
    at: datetime


def recent_feedback(user) -> list[Feedback]:
    """TA comments on the student's submissions and answers to their regrade requests."""
    from gradebook.models import RegradeRequest
    from gradinglab.models import Submission

    rows: list[Feedback] = []
    commented = (
        Submission.objects.visible_to(user)
        .owned_by(user)
        .exclude(staff_comment="")
        .select_related("assignment__problem")
        .order_by("-created_at")[:RECENT_LIMIT]
    )
    for sub in commented:
        title = sub.assignment.name_for(page_lang())
        rows.append(
            Feedback(
                gettext("%(title)s · 提交 #%(pk)d") % {"title": title, "pk": sub.pk},
                sub.staff_comment,
                reverse("gradinglab:submission", args=[sub.pk]),
                sub.finished_at or sub.created_at,
            )
        )
    answered = (
        RegradeRequest.objects.visible_to(user)
        .owned_by(user)
        .filter(resolved_at__isnull=False)
        .select_related("item")
        .order_by("-resolved_at")[:RECENT_LIMIT]
    )
    for req in answered:
        rows.append(
            Feedback(
                gettext("复核申请 #%(pk)d") % {"pk": req.pk},
                req.response,
                reverse("gradebook:regrade_detail", args=[req.pk]),
                req.resolved_at,
            )
        )
    return sorted(rows, key=lambda f: f.at, reverse=True)[:RECENT_LIMIT]


def announcements_current(*, now: datetime | None = None) -> list[Announcement]:
    return list(Announcement.objects.current(now))


def home_for(user) -> dict:
    return {
        "announcements": announcements_current(),
        "due": due_next(user),
        "reading": reading(user),
        "grades": recent_grades(user),
        "feedback": recent_feedback(user),
    }
