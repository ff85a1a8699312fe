"""Must hold 2 (and issue 13's must hold 6): kill -9 of the worker (parent and pool child) while it
grades, ten times in a row; after each restart the job runs again (acks_late: Redis hands the
unacknowledged message out again), and the submission ends with one stored result and one
gradebook change."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from gradebook.models import GradeEvent
from gradinglab.models import GradingJob, Submission, SubmissionResult
from gradinglab.services.workers import worker_token_create
from gradinglab.tests import labkit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Seconds an unacknowledged job stays invisible before Redis redelivers it. Short here: a restarted
# worker restores messages older than this when it starts.
VISIBILITY_S = "2"
KILLS = 10  # kill -9 mid-job, this many times in a row (issue 13)
TIMEOUT_S = 240  # seconds per wait: worker start plus a Triton-interpreter run on 2 busy cores


def _start(live_server, token: str, log: Path):
    # The Django-free worker app: what a GPU host runs (no database credentials used).
    return labkit.start_worker(
        app="gradinglab.worker",
        api_url=live_server.url,
        token=token,
        log_path=log,
        extra_env={"CELERY_VISIBILITY_TIMEOUT": VISIBILITY_S},
    )


def _deliveries(log: Path) -> int:
    return log.read_text(errors="replace").count("Task gradinglab.grade_submission")


def _pool_children(worker) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(worker.pid)], capture_output=True, text=True).stdout
    return [int(pid) for pid in out.split()]


def test_kill_9_mid_job_ten_times_then_graded_exactly_once(
    live_server, client_a, tmp_path: Path
) -> None:
    """The first kill takes the whole worker (parent and pool child; Redis redelivers the
    unacknowledged message to the restarted worker); the next nine kill the pool process that runs
    the job (the parent rejects the message back to the queue: reject_on_worker_lost). Ten worker
    restarts would cost minutes on 2 cores; both paths of redelivery are covered."""
    assignment = labkit.make_assignment()
    labkit.purge()
    token = worker_token_create(name="kill-cpu", kind="cpu")
    log = tmp_path / "worker.log"
    response = client_a.post(
        "/lab/problems/vector-add/submit/",
        {"backend": "triton", "source": labkit.slow_correct_source(pause_s=1)},
    )
    assert response.status_code == 302
    sub = Submission.objects.get()
    worker = _start(live_server, token, log)
    try:
        for kill in range(KILLS):
            labkit.wait_until(
                lambda: Submission.objects.get(pk=sub.pk).phase == "testing",
                timeout_s=TIMEOUT_S,
                what=f"the worker to be grading (delivery {kill + 1})",
                log_path=log,
                proc=worker,
            )
            deliveries = _deliveries(log)
            if kill == 0:
                delivered = time.monotonic()  # at the latest: the job reported a phase just now
                labkit.stop_worker(worker, signal.SIGKILL)  # the whole process group
                time.sleep(max(0.0, delivered + int(VISIBILITY_S) + 0.5 - time.monotonic()))
                worker = _start(live_server, token, log)
            else:
                children = _pool_children(worker)
                assert children, "no pool process to kill"
                for pid in children:
                    os.kill(pid, signal.SIGKILL)
            assert Submission.objects.get(pk=sub.pk).is_pending
            assert SubmissionResult.objects.count() == 0
            labkit.wait_until(
                lambda deliveries=deliveries: _deliveries(log) > deliveries,
                timeout_s=TIMEOUT_S,
                what=f"delivery {kill + 2} of the job",
                log_path=log,
                proc=worker,
            )
            # The killed run can report no more; the next "testing" is the new delivery's.
            Submission.objects.filter(pk=sub.pk).update(phase="")
        labkit.wait_until(
            lambda: not Submission.objects.get(pk=sub.pk).is_pending,
            timeout_s=TIMEOUT_S,
            what="the re-delivered job to finish",
            log_path=log,
            proc=worker,
        )
    finally:
        labkit.stop_worker(worker, signal.SIGKILL)
    sub.refresh_from_db()
    assert sub.status == "accepted"
    assert GradingJob.objects.filter(submission=sub).count() == 1  # the same job ran again
    assert SubmissionResult.objects.filter(submission=sub).count() == 1
    events = GradeEvent.objects.filter(item__key=assignment.grade_item_key)
    assert events.count() == 1 and events.get().new_points == 10
    assert _deliveries(log) >= KILLS + 1  # delivered once more after each kill
