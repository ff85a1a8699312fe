"""Writes of the lab: submissions, dispatch, phases and results from workers, regrades, the reaper.

Every score reaches the gradebook through `gradebook.services.grade_record` (raw points plus
`submitted_at`; the gradebook applies its late policy and writes the audit row).
"""

from __future__ import annotations

import hashlib
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

import jsonschema
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext as _

from gradebook.models import Grade, GradeItem
from gradebook.services import grade_item_ensure, grade_record
from gradinglab import conf, dispatch, precheck, result_check
from gradinglab.models import (
    Assignment,
    GradingJob,
    Problem,
    RegradeRun,
    Submission,
    SubmissionResult,
    WorkerNode,
    new_token,
    token_hash,
)
from gradinglab.runner.result import validate as result_validate
from gradinglab.runner.source import MAX_SOURCE_BYTES, SourceProblem, source_problem
from gradinglab.scoring import document_points
from gradinglab.worker.jobs import make_payload
from gradinglab.worker.queues import CPU_QUEUE
from pdcsite.logs import tag_submission

log = logging.getLogger("gradinglab")

PHASES = ("compiling", "testing", "timing")
_CENT = Decimal("0.01")


class SubmissionError(ValueError):
    """Bad input from a student (wrong backend, empty or oversized source): nothing is stored."""


class SubmissionClosed(SubmissionError):
    pass


class RateLimited(SubmissionError):
    def __init__(self, message: str, next_allowed_at: datetime) -> None:
        super().__init__(message)
        self.next_allowed_at = next_allowed_at


class JobUnknown(LookupError):
    pass


class JobSuperseded(RuntimeError):
    """A result or phase for a job that the reaper or a regrade replaced."""


class ResultInvalid(ValueError):
    pass


# A credential of another kind than the job's queue (HTTP 403); see gradinglab.result_check.
WrongWorker = result_check.WrongWorker


# --- submissions -----------------------------------------------------------------------------


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


def _check_window(assignment: Assignment, now: datetime) -> bool:
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
            gettext("该实验于 %(at)s 开放")
            % {"at": f"{timezone.localtime(assignment.opens_at):%Y-%m-%d %H:%M}"}
        )
    if assignment.due_at is None or now <= assignment.due_at:
        return False
    if assignment.late_until and now <= assignment.late_until:
        return True
    closed_at = timezone.localtime(assignment.late_until or assignment.due_at)
    raise SubmissionClosed(
        gettext("已过截止时间 %(at)s，不再接受提交") % {"at": f"{closed_at:%Y-%m-%d %H:%M}"}
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
            gettext("提交过于频繁：每 %(m)d 分钟最多 %(n)d 次。下次可提交时间：%(at)s")
            % {"m": minutes, "n": count, "at": f"{timezone.localtime(next_at):%Y-%m-%d %H:%M:%S}"},
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
    late = _check_window(assignment, now)
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
    )
    tag_submission(submission.pk)
    _dispatch(submission, now)
    log.info("submission queued on %s (%s, via %s)", submission.queue, backend, via)
    return submission


def _dispatch(submission: Submission, now: datetime) -> GradingJob:
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


# --- worker reports --------------------------------------------------------------------------


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
    """Store a job's result once. Returns False when this round already has its result."""
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
        _dispatch(submission, now)
        return True
    _finish(submission, document, job, now)
    log.info("result stored: %s from worker %s", document["status"], worker.name)
    return True


def _finish(
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


def _best(assignment: Assignment, student: AbstractBaseUser) -> Submission | None:
    """The submission that counts: the best effective score (a TA's per-submission override,
    else the automatic score), the earliest among equals."""
    return (
        Submission.objects.filter(assignment=assignment, student=student)
        .annotate(effective=Coalesce("score_override", "score"))
        .filter(effective__isnull=False)
        .order_by("-effective", "created_at")
        .first()
    )


def submission_effective_score(submission: Submission) -> Decimal | None:
    return submission.effective_score


def assignment_grade_item(assignment: Assignment) -> GradeItem:
    """The assignment's gradebook item, its due date kept in step; the late policy is only the
    item's initial one (the gradebook owns it after creation, so a result never overwrites it)."""
    return grade_item_ensure(
        key=assignment.grade_item_key,
        title=f"实验：{assignment.display_title}",
        title_en=f"Lab: {assignment.title or assignment.problem.title_en or assignment.problem.slug}",
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
    best = _best(assignment, student)
    if best is None:
        return None
    return grade_record(
        student=student,
        item=assignment_grade_item(assignment),
        points=submission_effective_score(best),
        source="lab",
        actor=actor,
        reason=reason or f"submission #{best.pk} ({best.status})",
        submitted_at=best.created_at,
        ref=f"submission:{best.pk}",
    )


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

    reason = (reason or "").strip()
    if not reason:
        raise GradeError(_("改分需要填写原因。"))
    assignment = submission.assignment
    if points is not None and not Decimal(0) <= points <= assignment.points:
        raise GradeError(
            _("%(item)s 的分数 %(points)s 超出 0…%(max)s 的范围。")
            % {"item": assignment.display_title, "points": points, "max": assignment.points}
        )
    sub = Submission.objects.select_for_update().get(pk=submission.pk)
    old = submission_effective_score(sub)
    sub.score_override, sub.score_override_reason = points, reason if points is not None else ""
    sub.save(update_fields=["score_override", "score_override_reason"])
    item = assignment_grade_item(assignment)
    new = submission_effective_score(sub)
    grade_audit_note(
        item=item,
        student=sub.student,
        actor=actor,
        action=GradeEvent.Action.SUBMISSION_OVERRIDE,
        reason=f"submission #{sub.pk}: {old} -> {new}; {reason}",
    )
    return assignment_grade_sync(
        assignment=assignment,
        student=sub.student,
        actor=actor,
        reason=f"submission #{sub.pk} score set by staff",
    )


# --- staff actions ---------------------------------------------------------------------------


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
        _dispatch(submission, now)
        count += 1
    return count


@dataclass(frozen=True)
class ScoreChange:
    student_id: int
    username: str
    old: Decimal | None
    new: Decimal
    submission_changes: list[tuple[int, str | None, str]]  # (submission id, old, new)

    def as_json(self) -> dict[str, Any]:
        return {
            "student_id": self.student_id,
            "username": self.username,
            "old": None if self.old is None else str(self.old),
            "new": str(self.new),
            "submissions": [list(c) for c in self.submission_changes],
        }


def _rescored(assignment: Assignment) -> dict[int, list[tuple[Submission, Decimal | None]]]:
    by_student: dict[int, list[tuple[Submission, Decimal | None]]] = {}
    results = {
        (r.submission_id, r.round): r.document
        for r in SubmissionResult.objects.filter(submission__assignment=assignment)
    }
    for sub in Submission.objects.filter(assignment=assignment).select_related(
        "student", "assignment__problem"
    ):
        doc = results.get((sub.pk, sub.round))
        new = submission_score(sub, doc) if doc else sub.score
        by_student.setdefault(sub.student_id, []).append((sub, new))
    return by_student


def regrade_plan(*, assignment: Assignment) -> list[ScoreChange]:
    """What rescoring every stored result under the current rule would change (nothing written)."""
    grades = {
        g.student_id: g.auto_points
        for g in Grade.objects.filter(item__key=assignment.grade_item_key)
    }
    changes = []
    for student_id, rows in _rescored(assignment).items():
        # A TA's override of one submission stays in force through a rescore.
        scored = [
            s.score_override if s.score_override is not None else new
            for s, new in rows
            if new is not None or s.score_override is not None
        ]
        if not scored:
            continue
        best = max(scored)
        per_sub = [
            (s.pk, None if s.score is None else str(s.score), str(new))
            for s, new in rows
            if new is not None and new != s.score
        ]
        if grades.get(student_id) != best or per_sub:
            changes.append(
                ScoreChange(
                    student_id, rows[0][0].student.username, grades.get(student_id), best, per_sub
                )
            )
    return sorted(changes, key=lambda c: c.username)


@transaction.atomic
def regrade_apply(
    *, assignment: Assignment, actor: AbstractBaseUser, dry_run: bool
) -> tuple[RegradeRun, list[ScoreChange]]:
    """Record the plan (audit row); when not a dry run, write the new scores through the gradebook."""
    changes = regrade_plan(assignment=assignment)
    run = RegradeRun.objects.create(
        assignment=assignment,
        actor=actor,
        dry_run=dry_run,
        changes=[c.as_json() for c in changes],
        at=timezone.now(),
    )
    if dry_run:
        return run, changes
    rows = _rescored(assignment)
    for change in changes:
        for sub, new in rows[change.student_id]:
            if new != sub.score:
                sub.score = new
                sub.save(update_fields=["score"])
        assignment_grade_sync(
            assignment=assignment,
            student=rows[change.student_id][0][0].student,
            actor=actor,
            reason=f"regrade run #{run.pk} by {actor.get_username()}",
        )
    return run, changes


@transaction.atomic
def submissions_flag(*, submissions: list[Submission], flagged: bool, reason: str = "") -> int:
    return Submission.objects.filter(pk__in=[s.pk for s in submissions]).update(
        flagged=flagged, flag_reason=reason[:300] if flagged else ""
    )


# --- reaper ----------------------------------------------------------------------------------


def _is_stuck(job: GradingJob | None, now: datetime, *, broker_reset: bool = False) -> bool:
    if job is None:
        return True
    if job.started_at is None and broker_reset:
        return True  # its message went with the broker's data: send it again now
    if job.started_at is not None:
        last = job.last_seen_at or job.started_at
        return last < now - timedelta(seconds=conf.RUNNING_STUCK_S)
    return job.enqueued_at < now - timedelta(seconds=conf.QUEUED_STUCK_S)


def _give_up(submission: Submission, now: datetime) -> None:
    from gradinglab.runner.result import finish, new_document

    doc = new_document(
        slug=submission.assignment.problem.slug, backend=submission.backend, path="cpu"
    )
    finish(
        doc,
        status="infrastructure_error",
        message=f"grading failed {submission.dispatches} times (workers lost or stuck); "
        "this does not count as an attempt — please submit again or ask a TA",
    )
    _finish(submission, doc, None, now)


def _reap_one(submission: Submission, now: datetime, broker_reset: bool) -> str | None:
    job = (
        GradingJob.objects.filter(submission=submission, round=submission.round, superseded=False)
        .order_by("-enqueued_at")
        .first()
    )
    if not _is_stuck(job, now, broker_reset=broker_reset):
        return None
    if job is not None:
        job.superseded = True
        job.save(update_fields=["superseded"])
    if submission.dispatches >= conf.MAX_DISPATCHES:
        _give_up(submission, now)
        return "failed"
    submission.status, submission.phase = Submission.Status.QUEUED, ""
    submission.save(update_fields=["status", "phase"])
    _dispatch(submission, now)
    return "requeued"


@transaction.atomic
def submissions_reap(*, now: datetime | None = None, broker_reset: bool = False) -> dict[str, int]:
    """Re-queue pending submissions whose job is stuck; after MAX_DISPATCHES give up (no attempt).

    Stuck: queued past QUEUED_STUCK_S, running silent past RUNNING_STUCK_S, or queued when the
    broker lost its data (a Redis restart): those are sent again from the database at once.

    Each submission in its own savepoint: one that cannot be handled is rolled back, logged and
    counted under "errors", and the others are still reaped.
    """
    now = now or timezone.now()
    counts = {"requeued": 0, "failed": 0, "errors": 0}
    try:
        broker_reset = dispatch.broker_was_reset() or broker_reset
    except Exception:  # broker down: nothing can be sent now anyway; the stuck rules still apply
        log.warning("broker unreachable while reaping", exc_info=True)
        broker_reset = False
    pending = (
        Submission.objects.select_for_update(skip_locked=True)
        .filter(status__in=Submission.PENDING)
        .select_related("assignment__problem")
        .order_by("pk")
    )
    for submission in pending:
        try:
            with transaction.atomic():
                outcome = _reap_one(submission, now, broker_reset)
        except Exception:
            log.exception("reaping submission %s failed; the reaper goes on", submission.pk)
            counts["errors"] += 1
            continue
        if outcome:
            counts[outcome] += 1
    return counts


# --- workers ---------------------------------------------------------------------------------


@transaction.atomic
def worker_token_create(*, name: str, kind: str, device: str = "") -> str:
    """Create (or rotate) a worker credential; the raw token is shown once. `device` is the exact
    device model the web side computes floors for (blank: the fastest device of the kind)."""
    raw = new_token("wrk_")
    WorkerNode.objects.update_or_create(
        name=name,
        defaults={"kind": kind, "device": device, "token_hash": token_hash(raw), "active": True},
    )
    return raw


def worker_heartbeat(*, worker: WorkerNode, info: dict[str, Any]) -> None:
    clean = {str(k)[:40]: str(v)[:200] for k, v in list(info.items())[:20]}
    WorkerNode.objects.filter(pk=worker.pk).update(last_heartbeat_at=timezone.now(), info=clean)


# --- problem packages ------------------------------------------------------------------------


RENDER_VERSION = b"statement-render-2"  # bump to re-render every statement on the next sync


def _package_hash(path) -> str:
    """Every file of the package (statement, reference, starters, solutions, exploit suite): a
    change anywhere re-renders and withdraws the publishing check until it is run again."""
    digest = hashlib.sha256(RENDER_VERSION)
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = file.relative_to(path).as_posix()
        digest.update(rel.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def problem_check_record(*, slug: str, only: list[str] | None = None):
    """Run the publishing check of a package (gradinglab.problem_check) and record it on the
    problem. It is publishable only when every file was checked, nothing mismatched, and the
    package on disk is the synced one. Returns the report. Slow (real grading jobs): callers are
    the management command and a Celery task, never a request."""
    from gradinglab import problem_check
    from gradinglab.runner.problems import problems_dir

    pkg = problems_dir() / slug
    digest = _package_hash(pkg) if pkg.is_dir() else ""
    report = problem_check.run(slug, pkg, only)
    with transaction.atomic():
        row = Problem.objects.select_for_update().filter(slug=slug).first()
        if row is not None:
            complete = report.passed and only is None and digest == row.content_sha256
            row.checked_sha256 = digest if complete else ""
            row.checked_at = timezone.now()
            row.check_report = report.as_json()
            row.save(update_fields=["checked_sha256", "checked_at", "check_report"])
    return report


def _loosen_lists(text: str) -> str:
    """Markdown needs a blank line before a list; package authors often omit it."""
    out: list[str] = []
    for line in text.splitlines():
        is_item = line.lstrip().startswith(("- ", "* ", "1. "))
        if is_item and out and out[-1].strip() and not out[-1].lstrip().startswith(("- ", "* ")):
            if not out[-1].startswith(" "):
                out.append("")
        out.append(line)
    return "\n".join(out)


def _problem_fields(problem) -> dict[str, Any]:
    from lectures.rendering import render_markdown

    return {
        "title_zh": problem.title.get("zh", problem.slug),
        "title_en": problem.title.get("en", ""),
        "statement_zh_html": render_markdown(_loosen_lists(problem.statement.get("zh", ""))).html,
        "statement_en_html": render_markdown(_loosen_lists(problem.statement.get("en", ""))).html,
        "sections": list(problem.sections),
        "backends": list(problem.backends),
        "entry_point": dict(problem.entry_point),
        "dtypes": list(problem.dtypes),
        "tolerances": problem.tolerances,
        "tests": [{"name": t.name, "shape": dict(t.shape)} for t in problem.tests],
        "benchmarks": [{"name": t.name, "shape": dict(t.shape)} for t in problem.benchmarks],
        "scoring": dict(problem.scoring),
        "bound": problem.bound,
    }


@transaction.atomic
def problems_sync() -> dict[str, Any]:
    """Load every problem package into the database. Idempotent: unchanged packages are skipped;
    an invalid package is reported and left as it was (its row, if any, stays)."""
    from gradinglab.models import Problem as ProblemRow
    from gradinglab.runner import ProblemInvalid, load_problem
    from gradinglab.runner.problems import problems_dir

    counts: dict[str, Any] = {"created": 0, "updated": 0, "unchanged": 0, "deactivated": 0}
    errors: list[str] = []
    seen = []
    root = problems_dir()
    slugs = sorted(p.name for p in root.iterdir() if (p / "problem.yaml").is_file())
    for slug in slugs:
        seen.append(slug)
        try:
            problem = load_problem(slug)
        except ProblemInvalid as exc:
            errors.append(f"{slug}: {exc}")
            continue
        digest = _package_hash(problem.path)
        row = ProblemRow.objects.filter(slug=problem.slug).first()
        if row is not None and row.content_sha256 == digest and row.active:
            counts["unchanged"] += 1
            continue
        fields = {**_problem_fields(problem), "content_sha256": digest, "active": True}
        fields["synced_at"] = timezone.now()
        ProblemRow.objects.update_or_create(slug=problem.slug, defaults=fields)
        counts["created" if row is None else "updated"] += 1
    counts["deactivated"] = (
        ProblemRow.objects.exclude(slug__in=seen).filter(active=True).update(active=False)
    )
    counts["errors"] = errors
    return counts


# Demo assignments for `make run`: two weeks to the due date, one more week of late window (days).
_DEMO_DUE_DAYS, _DEMO_LATE_DAYS = 14, 7


@transaction.atomic
def assignments_publish_demo() -> int:
    """Publish a CPU-graded assignment for every active problem that has none; returns how many.

    Only for the embedded demo (`make run`): a real course publishes assignments in the admin.
    """
    now = timezone.now()
    created = 0
    for problem in Problem.objects.filter(active=True, assignments__isnull=True).order_by("slug"):
        assignment = Assignment.objects.create(
            problem=problem,
            published=True,
            due_at=now + timedelta(days=_DEMO_DUE_DAYS),
            late_until=now + timedelta(days=_DEMO_DUE_DAYS + _DEMO_LATE_DAYS),
        )
        assignment_grade_item(assignment)
        created += 1
    return created
