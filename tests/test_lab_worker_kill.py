"""Must hold 2: kill -9 of the worker (parent and pool child) while it grades; after a restart the
job runs again (acks_late: Redis hands the unacknowledged message out again), and the submission
ends with one stored result and one gradebook change."""

from __future__ import annotations

import signal
import time
from pathlib import Path

import pytest

from gradebook.models import GradeEvent
from gradinglab.models import GradingJob, Submission, SubmissionResult
from gradinglab.services import worker_token_create
from gradinglab.tests.labkit import (
    make_assignment,
    purge,
    slow_correct_source,
    start_worker,
    stop_worker,
    wait_until,
)

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# Seconds an unacknowledged job stays invisible before Redis redelivers it. Short here so the test
# is quick. A live job outlasting it is handed out again only at the next restore sweep (~100 s), and
# even then the second result would be refused as a duplicate.
VISIBILITY_S = "15"
TIMEOUT_S = 240  # seconds per wait: worker start plus a Triton-interpreter run on 2 busy cores


def test_kill_9_while_grading_reruns_the_job_once(live_server, client_a, tmp_path: Path) -> None:
    assignment = make_assignment()
    purge()
    token = worker_token_create(name="kill-cpu", kind="cpu")
    log = tmp_path / "worker.log"
    env = {"CELERY_VISIBILITY_TIMEOUT": VISIBILITY_S}
    # The Django-free worker app: what a GPU host runs (no database credentials used).
    worker = start_worker(
        app="gradinglab.worker", api_url=live_server.url, token=token, log_path=log, extra_env=env
    )
    restarted = None
    try:
        response = client_a.post(
            "/lab/problems/vector-add/submit/",
            {"backend": "triton", "source": slow_correct_source()},
        )
        assert response.status_code == 302
        sub = Submission.objects.get()
        wait_until(
            lambda: Submission.objects.get(pk=sub.pk).phase == "testing",
            timeout_s=TIMEOUT_S,
            what="the worker to start grading",
            log_path=log,
            proc=worker,
        )
        delivered = time.monotonic()  # at the latest: the job reported a phase just now
        stop_worker(worker, signal.SIGKILL)  # the whole process group: parent and pool child
        assert Submission.objects.get(pk=sub.pk).is_pending
        assert SubmissionResult.objects.count() == 0
        # Redis hands out an unacknowledged message again once it is older than the visibility
        # timeout; a worker checks for such messages when it starts (then only every ~100 s).
        time.sleep(max(0.0, delivered + int(VISIBILITY_S) + 1 - time.monotonic()))

        restarted = start_worker(
            app="gradinglab.worker",
            api_url=live_server.url,
            token=token,
            log_path=log,
            extra_env=env,
        )
        done = wait_until(
            lambda: not Submission.objects.get(pk=sub.pk).is_pending,
            timeout_s=TIMEOUT_S,
            what="the re-delivered job to finish",
            log_path=log,
            proc=restarted,
        )
        assert done
    finally:
        stop_worker(worker, signal.SIGKILL)
        if restarted is not None:
            stop_worker(restarted)
    sub.refresh_from_db()
    assert sub.status == "accepted"
    assert GradingJob.objects.filter(submission=sub).count() == 1  # the same job ran again
    assert SubmissionResult.objects.filter(submission=sub).count() == 1
    events = GradeEvent.objects.filter(item__key=assignment.grade_item_key)
    assert events.count() == 1 and events.get().new_points == 10
    assert (
        log.read_text(errors="replace").count("gradinglab.grade_submission") >= 2
    )  # received twice
