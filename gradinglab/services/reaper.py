"""The reaper: re-sends jobs that are stuck or that the broker lost, and gives up after
MAX_DISPATCHES with infrastructure_error (no attempt counted).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from gradinglab import conf, dispatch
from gradinglab.models import (
    GradingJob,
    Submission,
)
from gradinglab.services.results import result_finish
from gradinglab.services.submissions import job_dispatch

log = logging.getLogger("gradinglab")


def _is_stuck(job: GradingJob | None, now: datetime, *, broker_reset: bool = False) -> bool:
    if job is None:
        return True
    if job.started_at is None and broker_reset:
        return True  # its message went with the broker's data: send it again now
    return job.stuck(now)


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
    result_finish(submission, doc, None, now)


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
    job_dispatch(submission, now)
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
