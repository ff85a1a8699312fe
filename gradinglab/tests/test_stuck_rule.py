"""When a grading job counts as stuck: one rule (GradingJob.stuck) in two forms, the model's for
the reaper and the queryset's for the staff desk's list, which must agree at every edge."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from gradinglab import conf
from gradinglab.models import GradingJob, Submission
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db

S = timedelta(seconds=1)
RUNNING = timedelta(seconds=conf.RUNNING_STUCK_S)
QUEUED = timedelta(seconds=conf.QUEUED_STUCK_S)


def _cases(now: datetime) -> dict[str, tuple[dict, bool]]:
    """name -> (the job's times, stuck?), just either side of each limit."""
    old = now - 2 * (RUNNING + QUEUED)
    return {
        "queued, young": ({"enqueued_at": now - QUEUED + S}, False),
        "queued, past the limit": ({"enqueued_at": now - QUEUED - S}, True),
        # A result with no phase reported before it leaves a report and no start
        # (services.results): a job not started is judged as queued, whatever its last report.
        "never started, queued lately, an old report": (
            {"enqueued_at": now - QUEUED + S, "last_seen_at": now - RUNNING - S},
            False,
        ),
        "started, no report yet, young": (
            {"enqueued_at": old, "started_at": now - RUNNING + S},
            False,
        ),  # fmt: skip
        "started, no report since": ({"enqueued_at": old, "started_at": now - RUNNING - S}, True),
        "reported lately": (
            {"enqueued_at": old, "started_at": old, "last_seen_at": now - RUNNING + S},
            False,
        ),
        "silent since its report": (
            {"enqueued_at": old, "started_at": old, "last_seen_at": now - RUNNING - S},
            True,
        ),
    }


def test_the_reaper_and_the_staff_desk_call_the_same_jobs_stuck(student_a) -> None:
    now = timezone.now()
    assignment = make_assignment()
    jobs = {}
    for i, (name, (times, _)) in enumerate(_cases(now).items()):
        submission = Submission.objects.create(
            assignment=assignment, student=student_a, backend="triton", source=name,
            sha256=f"{i:064d}", created_at=now,
        )  # fmt: skip
        jobs[name] = GradingJob.objects.create(
            submission=submission, round=submission.round, token_hash=str(i), queue="grade-cpu",
            **times,
        )  # fmt: skip
    want = {name for name, (_, stuck) in _cases(now).items() if stuck}
    assert {name for name, job in jobs.items() if job.stuck(now)} == want
    listed = set(GradingJob.objects.stuck(now).values_list("pk", flat=True))
    assert {name for name, job in jobs.items() if job.pk in listed} == want
