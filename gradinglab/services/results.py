"""Results: what workers report (phases, the result document) and the score it gives, posted to the
gradebook through `gradebook.services.grade_record` (raw points plus `submitted_at`; the gradebook
applies its late policy and writes the audit row).
"""

from __future__ import annotations

import logging
from datetime import datetime
from decimal import Decimal
from typing import Any

import jsonschema
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.language import page_lang
from gradebook.calc import Score
from gradebook.models import Grade, GradeItem
from gradebook.reasons import Reason, cleaned
from gradebook.selectors import late_rule
from gradebook.services import grade_item_ensure, grade_record
from gradinglab import conf, result_check
from gradinglab.models import (
    Assignment,
    GradingJob,
    Submission,
    SubmissionResult,
    WorkerNode,
    effective_score_expr,
    token_hash,
)
from gradinglab.runner.result import validate as result_validate
from gradinglab.scoring import document_points
from gradinglab.services.submissions import job_dispatch
from pdcsite.logs import tag_submission
from pdcsite.storable import storable

log = logging.getLogger("gradinglab")


PHASES = ("compiling", "testing", "timing")


class JobUnknown(LookupError):
    pass


class JobSuperseded(RuntimeError):
    """A result or phase for a job that the reaper or a regrade replaced."""


class ResultInvalid(ValueError):
    pass


# A credential of another kind than the job's queue (HTTP 403); see gradinglab.result_check.
WrongWorker = result_check.WrongWorker


def _current_job(job_token: str, worker: WorkerNode) -> tuple[GradingJob, Submission]:
    job = GradingJob.objects.select_for_update().filter(token_hash=token_hash(job_token)).first()
    if job is None:
        raise JobUnknown("unknown job token")
    tag_submission(job.submission_id)
    result_check.check_worker(worker, job)
    submission = (
        Submission.objects.select_for_update()
        .select_related("assignment__problem")
        .get(pk=job.submission_id)
    )
    if job.superseded or job.round != submission.round:
        raise JobSuperseded("this job was replaced (regrade or re-queue)")
    return job, submission


@transaction.atomic
def job_phase(*, worker: WorkerNode, job_token: str, phase: str) -> None:
    if phase not in PHASES:
        raise ResultInvalid(f"phase must be one of {PHASES}")
    job, submission = _current_job(job_token, worker)
    now = timezone.now()
    job.started_at = job.started_at or now
    job.last_seen_at, job.worker = now, worker
    job.save(update_fields=["started_at", "last_seen_at", "worker"])
    if submission.is_pending:
        submission.status, submission.phase = Submission.Status.RUNNING, phase
        submission.started_at = submission.started_at or now
        submission.save(update_fields=["status", "phase", "started_at"])


def _validate_schema(document: Any) -> None:
    try:
        result_validate(document)
    except jsonschema.ValidationError as exc:
        path = "/".join(str(p) for p in exc.absolute_path)
        raise ResultInvalid(f"result document off schema at '{path}': {exc.message[:300]}") from exc


@transaction.atomic
def result_store(*, worker: WorkerNode, job_token: str, document: Any) -> bool:
    """Store a job's result once. Returns False when this round already has its result.

    NULs and lone surrogates in its text become U+FFFD first: a student's kernel can put one in an exception message
    or the compiler's log, and jsonb refuses it (the result was a 500, so never stored)."""
    document = storable(document)
    _validate_schema(document)
    job, submission = _current_job(job_token, worker)
    try:
        document = result_check.checked_document(document, submission, worker)
    except result_check.ResultRefused as exc:
        raise ResultInvalid(str(exc)) from exc
    now = timezone.now()
    if SubmissionResult.objects.filter(submission=submission, round=submission.round).exists():
        return False
    job.finished_at, job.last_seen_at, job.worker = now, now, worker
    job.save(update_fields=["finished_at", "last_seen_at", "worker"])
    if document["status"] == "infrastructure_error" and submission.dispatches < conf.MAX_DISPATCHES:
        # The host failed, not the student: try another dispatch before giving up.
        job.superseded = True
        job.save(update_fields=["superseded"])
        submission.status, submission.phase = Submission.Status.QUEUED, ""
        submission.save(update_fields=["status", "phase"])
        job_dispatch(submission, now)
        return True
    result_finish(submission, document, job, now)
    log.info("result stored: %s from worker %s", document["status"], worker.name)
    return True


def result_finish(
    submission: Submission, document: dict[str, Any], job: GradingJob | None, now: datetime
) -> None:
    SubmissionResult.objects.create(
        submission=submission, round=submission.round, job=job, document=document, received_at=now
    )
    timing = document.get("timing") or {}
    submission.status, submission.phase, submission.finished_at = document["status"], "", now
    submission.counts_as_attempt = bool(document["gradable"]) and not submission.practice
    submission.score = None if submission.practice else submission_score(submission, document)
    submission.median_ms = timing.get("median_ms")
    submission.speedup = timing.get("speedup_vs_reference")
    submission.roofline_fraction = timing.get("roofline_fraction")
    submission.device_name = (document.get("device") or {}).get("name", "")[:200]
    if reason := result_check.review_reason(document):
        submission.flagged, submission.flag_reason = True, reason
        submission.flagged_by = Submission.FlaggedBy.GRADER
    submission.save()
    if submission.score is not None:
        assignment_grade_sync(assignment=submission.assignment, student=submission.student)


def submission_score(submission: Submission, document: dict[str, Any]) -> Decimal | None:
    """Assignment points earned under the problem's current scoring rule (gradinglab.scoring)."""
    return document_points(
        document,
        submission.assignment.problem.scoring,
        points=submission.assignment.points,
        cpu_only=not submission.assignment.gpu_kind,
    )


def _scored(assignment: Assignment, student: AbstractBaseUser) -> list[Submission]:
    """The student's submissions with an effective score (a TA's per-submission override, else
    the automatic score), in submit order."""
    return list(
        Submission.objects.filter(assignment=assignment, student=student)
        .annotate(effective=effective_score_expr())
        .filter(effective__isnull=False)
        .order_by("created_at")
    )


def _best(
    scored: list[Submission], student: AbstractBaseUser, item: GradeItem
) -> Submission | None:
    """The submission that counts: the best effective score after the gradebook's late penalty,
    the earliest among equals. Before the penalty, a late 100 beat an on-time 90 and counted 50
    at a 50 % penalty."""
    rule = late_rule(student, item.key)
    assert rule is not None  # the item exists: assignment_grade_sync ensured it
    return max(scored, key=lambda sub: rule.counted(sub.effective, sub.created_at), default=None)


def assignment_grade_follow_due(*, pk: int, student, actor) -> None:
    """The student's lateness on lab ``pk``'s item changed (an extension, a new late policy):
    the submission worth most after the late penalty may now be another one. Registered with
    the gradebook for "lab:" items (gradinglab.apps; Assignment.grade_item_key)."""
    assignment = Assignment.objects.filter(pk=pk).first()
    if assignment is not None:
        assignment_grade_sync(
            assignment=assignment, student=student, actor=actor, reason=Reason("due_changed_lab")
        )


def submission_effective_score(submission: Submission) -> Decimal | None:
    return submission.effective_score


def assignment_grade_item(assignment: Assignment) -> GradeItem:
    """The assignment's gradebook item, its due date kept in step; the late policy is only the
    item's initial one (the gradebook owns it after creation, so a result never overwrites it)."""
    return grade_item_ensure(
        key=assignment.grade_item_key,
        title=f"实验：{assignment.name_for('zh')}",
        title_en=f"Lab: {assignment.name_for('en')}",
        kind="lab",
        category="lab",
        max_points=assignment.points,
        due_at=assignment.due_at,
        late={
            "late_policy": assignment.late_policy,
            "late_penalty_per_day": assignment.late_penalty_per_day,
            "late_penalty_cap": assignment.late_penalty_cap,
        },
    )


def assignment_grade_sync(
    *,
    assignment: Assignment,
    student: AbstractBaseUser,
    actor: AbstractBaseUser | None = None,
    reason: str = "",
) -> Grade | None:
    """Post the student's best submission score (raw points, its submission time)."""
    item = assignment_grade_item(assignment)  # first: its lateness rule picks the best
    scored = _scored(assignment, student)
    best = _best(scored, student, item)
    if best is None:
        return None
    return grade_record(
        student=student,
        item=item,
        points=submission_effective_score(best),
        source="lab",
        actor=actor,
        reason=reason or Reason("submission_best", submission=best.pk, status=best.status),
        submitted_at=best.created_at,
        ref=_ref(best),
        # Under a GRACE policy the grace days left may make another submission worth more.
        others=[Score(sub.effective, sub.created_at, _ref(sub)) for sub in scored],
    )


def _ref(submission: Submission) -> str:
    return f"submission:{submission.pk}"


@transaction.atomic
def submission_score_override(
    *,
    submission: Submission,
    points: Decimal | None,
    actor: AbstractBaseUser,
    reason: str,
) -> Grade | None:
    """Replace (or, with ``points=None``, restore) ONE submission's score; the gradebook item is
    then re-derived from the best submission, exactly as after a result. Audited either way."""
    from gradebook.models import GradeEvent
    from gradebook.services import GradeError, grade_audit_note

    reason = cleaned(reason or "")  # a system reason (a flag verdict) keeps its parts
    if not reason:
        raise GradeError(_("改分需要填写原因。"))
    assignment = submission.assignment
    if points is not None and not Decimal(0) <= points <= assignment.points:
        raise GradeError(
            _("%(item)s 的分数 %(points)s 超出 0…%(max)s 的范围。")
            % {"item": assignment.name_for(page_lang()), "points": points, "max": assignment.points}
        )
    sub = Submission.objects.select_for_update().get(pk=submission.pk)
    old = submission_effective_score(sub)
    sub.score_override, sub.score_override_reason = points, reason if points is not None else ""
    sub.save(update_fields=["score_override", "score_override_reason"])
    sub.refresh_from_db(fields=["score_override"])  # as the column holds it: "3.00", not "3"
    item = assignment_grade_item(assignment)
    new = submission_effective_score(sub)
    grade_audit_note(
        item=item,
        student=sub.student,
        actor=actor,
        action=GradeEvent.Action.SUBMISSION_OVERRIDE,
        reason=Reason("submission_override", submission=sub.pk, old=old, new=new, note=reason),
    )
    return assignment_grade_sync(
        assignment=assignment,
        student=sub.student,
        actor=actor,
        reason=Reason("submission_set_by_staff", submission=sub.pk),
    )
