"""Submissions: the checks a new one passes, storing it, and sending its grading job (a new job for
every round: first submission, a worker's infrastructure_error, a staff re-run, the reaper).
"""

from __future__ import annotations

import hashlib
import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext as _

from gradinglab import conf, dispatch, precheck
from gradinglab.models import (
    Assignment,
    GradingJob,
    Submission,
    new_token,
    token_hash,
)
from gradinglab.runner.source import MAX_SOURCE_BYTES, SourceProblem, source_problem
from gradinglab.selectors import personal_dues
from gradinglab.worker.jobs import make_payload
from gradinglab.worker.queues import CPU_QUEUE
from pdcsite.logs import tag_submission
from pdcsite.moments import local_text

log = logging.getLogger("gradinglab")


class SubmissionError(ValueError):
    """Bad input from a student (wrong backend, empty or oversized source): nothing is stored."""


class SubmissionClosed(SubmissionError):
    pass


class RateLimited(SubmissionError):
    def __init__(self, message: str, next_allowed_at: datetime) -> None:
        super().__init__(message)
        self.next_allowed_at = next_allowed_at


def _check_source(assignment: Assignment, backend: str, source: str) -> None:
    if backend not in assignment.problem.backends:
        raise SubmissionError(
            gettext("后端 %(b)s 不可用；本题提供：%(all)s")
            % {"b": backend, "all": ", ".join(assignment.problem.backends)}
        )
    if refused := source_problem(source):
        raise SubmissionError(source_refusal(refused))


def source_refusal(problem: SourceProblem) -> str:
    """The student's words for what is wrong with their code (gradinglab.runner.source)."""
    if problem == SourceProblem.TOO_LARGE:
        return gettext("代码超过 %(n)d KiB") % {"n": MAX_SOURCE_BYTES // 1024}
    if problem == SourceProblem.NUL:
        return gettext("代码中含有 NUL 字节")
    return gettext("提交的代码为空")


def _precheck(assignment: Assignment, backend: str, source: str) -> precheck.Verdict:
    """The static pre-check (gradinglab.precheck); fail closed: a checker error refuses."""
    try:
        verdict = precheck.check(source, backend, precheck.policy_for(assignment.problem.slug))
    except precheck.CheckerFailed as exc:
        log.error("pre-check failed for %s: %s", assignment.problem.slug, exc)
        raise SubmissionError(
            _("提交前检查无法运行，代码没有排队评测；请稍后再试，或告诉助教。")
        ) from exc
    if verdict.refused:
        raise SubmissionError(verdict.refusal_message())
    return verdict


def _own_window(
    assignment: Assignment, student: AbstractBaseUser
) -> tuple[datetime, datetime | None]:
    """The student's due date and the end of their late window: the assignment's, moved as a whole
    by an extension staff granted (the gradebook's rule: gradinglab.selectors.personal_dues)."""
    due = personal_dues(student, [assignment]).get(assignment.pk, assignment.due_at)
    return due, assignment.late_until_for(due)


def _check_window(assignment: Assignment, now: datetime, student: AbstractBaseUser) -> bool:
    """Raises SubmissionClosed outside the window; returns True when the submission is late."""
    if not assignment.published:
        raise SubmissionClosed(gettext("该实验尚未发布"))
    if assignment.gpu_kind and assignment.gpu_kind not in settings.GPU_KINDS:
        # Saved before kinds were validated, or PDC_GPU_KINDS changed: no worker consumes it.
        raise SubmissionClosed(
            gettext("该实验的评测硬件 %(kind)s 未配置，请联系助教") % {"kind": assignment.gpu_kind}
        )
    if assignment.opens_at and now < assignment.opens_at:
        raise SubmissionClosed(
            gettext("该实验于 %(at)s 开放") % {"at": local_text(assignment.opens_at)}
        )
    if assignment.due_at is None:
        return False
    due, late_until = _own_window(assignment, student)
    if now <= due:
        return False
    if late_until and now <= late_until:
        return True
    raise SubmissionClosed(
        gettext("已过截止时间 %(at)s，不再接受提交") % {"at": local_text(late_until or due)}
    )


def _check_rate(
    assignment: Assignment, student: AbstractBaseUser, now: datetime, *, practice: bool = False
) -> None:
    """Graded submissions and practice runs ("run public tests") have separate windows."""
    if practice:
        minutes, count = conf.PRACTICE_RATE_MINUTES, conf.PRACTICE_RATE_COUNT
        rows = Submission.objects.filter(practice=True)
    else:
        minutes, count = assignment.rate_limit_minutes, assignment.rate_limit_count
        rows = Submission.objects.filter(counts_as_attempt=True, practice=False)
    window = timedelta(minutes=minutes)
    recent = list(
        rows.filter(assignment=assignment, student=student, created_at__gt=now - window)
        .order_by("created_at")
        .values_list("created_at", flat=True)
    )
    if len(recent) >= count:
        next_at = recent[len(recent) - count] + window
        raise RateLimited(
            ngettext(
                "提交过于频繁：每 %(m)d 分钟最多 %(n)d 次。下次可提交时间：%(at)s",
                "提交过于频繁：每 %(m)d 分钟最多 %(n)d 次。下次可提交时间：%(at)s",
                minutes,
            )
            % {"m": minutes, "n": count, "at": local_text(next_at, seconds=True)},
            next_at,
        )


@transaction.atomic
def submission_create(
    *,
    student: AbstractBaseUser,
    assignment: Assignment,
    backend: str,
    source: str,
    via: str = "web",
    now: datetime | None = None,
    practice: bool = False,
) -> Submission:
    """Store the submission (status queued) and enqueue its grading job after commit.

    A practice run (`practice=True`) runs the public tests on the CPU path; it is never scored and
    never counts as an attempt, and has its own rate limit."""
    now = now or timezone.now()
    source = source.replace("\r\n", "\n")
    _check_source(assignment, backend, source)
    late = _check_window(assignment, now, student)
    # Serialise one student's submissions to one assignment so the rate limit cannot be raced.
    get_user_model().objects.select_for_update().filter(pk=student.pk).first()
    _check_rate(assignment, student, now, practice=practice)
    verdict = _precheck(assignment, backend, source)
    submission = Submission.objects.create(
        assignment=assignment,
        student=student,
        backend=backend,
        source=source,
        sha256=hashlib.sha256(source.encode("utf-8")).hexdigest(),
        via=via,
        created_at=now,
        late=late,
        queue=CPU_QUEUE if practice else assignment.queue_name,
        practice=practice,
        counts_as_attempt=not practice,
        flagged=bool(verdict.flagged),
        flag_reason=verdict.flag_reason() if verdict.flagged else "",
        flagged_by=Submission.FlaggedBy.GRADER if verdict.flagged else "",
    )
    tag_submission(submission.pk)
    job_dispatch(submission, now)
    log.info("submission queued on %s (%s, via %s)", submission.queue, backend, via)
    return submission


def job_dispatch(submission: Submission, now: datetime) -> GradingJob:
    raw = new_token("job_")
    job = GradingJob.objects.create(
        submission=submission,
        round=submission.round,
        token_hash=token_hash(raw),
        queue=submission.queue,
        enqueued_at=now,
    )
    submission.dispatches += 1
    submission.save(update_fields=["dispatches"])
    payload = make_payload(
        submission_id=submission.pk,
        job_token=raw,
        slug=submission.assignment.problem.slug,
        backend=submission.backend,
        source=submission.source,
    )
    queue = submission.queue
    transaction.on_commit(lambda: dispatch.send_job(queue, payload))
    return job


@transaction.atomic
def submissions_rerun(*, submissions: list[Submission], actor: AbstractBaseUser) -> int:
    """Grade again from scratch: a new round, a new job; earlier jobs of the round can no longer post."""
    now = timezone.now()
    count = 0
    for submission in Submission.objects.select_for_update().filter(
        pk__in=[s.pk for s in submissions]
    ):
        GradingJob.objects.filter(submission=submission, finished_at__isnull=True).update(
            superseded=True
        )
        submission.round += 1
        submission.dispatches = 0
        submission.status, submission.phase = Submission.Status.QUEUED, ""
        submission.started_at = submission.finished_at = None
        submission.save()
        job_dispatch(submission, now)
        count += 1
    return count


@transaction.atomic
def submissions_flag(*, submissions: list[Submission], flagged: bool, reason: str = "") -> int:
    """A TA's flag (or its removal) on each of `submissions`."""
    return Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(
        flagged=flagged,
        flag_reason=reason[:300] if flagged else "",
        flagged_by=Submission.FlaggedBy.STAFF if flagged else "",
    )
