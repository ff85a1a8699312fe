"""Must hold 6 (issue 13): the test run's real Redis (no persistence) restarted while one job is running
and another is queued: none is lost (the reaper sends the lost queued job again from the database)
and none is scored twice (one stored result and one gradebook change per submission)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from gradebook.models import GradeEvent
from gradinglab.models import Submission, SubmissionResult
from gradinglab.services.reaper import submissions_reap
from gradinglab.services.workers import worker_token_create
from gradinglab.tests import labkit

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow, pytest.mark.serial]

REDIS_PORT = os.environ.get("REDIS_PORT", "")
TIMEOUT_S = 240  # seconds per wait: worker start plus Triton-interpreter runs on 2 busy cores


def _redis_cli(*args: str) -> str:
    cmd = ["redis-cli", "-p", REDIS_PORT, *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=10).stdout


def _restart_redis_empty() -> None:
    """Shut the server down without saving and start it again as scripts/services.sh does."""
    config = {
        key: _redis_cli("config", "get", key).split("\n")[1]
        for key in ("dir", "pidfile", "logfile")
    }
    _redis_cli("shutdown", "nosave")
    for _ in range(50):
        if _redis_cli("ping").strip() != "PONG":
            break
        time.sleep(0.1)
    subprocess.run(
        ["redis-server", "--port", REDIS_PORT, "--bind", "127.0.0.1", "--daemonize", "yes",
         "--save", "", "--appendonly", "no", "--dir", config["dir"],
         "--pidfile", config["pidfile"], "--logfile", config["logfile"]],
        check=True, timeout=10,
    )  # fmt: skip
    for _ in range(50):
        if _redis_cli("ping").strip() == "PONG":
            return
        time.sleep(0.1)
    raise AssertionError("Redis did not come back")


@pytest.mark.skipif(
    not REDIS_PORT, reason="needs the Redis that `make test` / `make services` starts"
)
def test_redis_restart_loses_no_job_and_scores_none_twice(
    live_server, client_a, client_b, tmp_path: Path
) -> None:
    assignment = labkit.make_assignment()
    labkit.purge()
    token = worker_token_create(name="redis-cpu", kind="cpu")
    log = tmp_path / "worker.log"
    worker = labkit.start_worker(
        app="gradinglab.worker", api_url=live_server.url, token=token, log_path=log
    )
    try:
        running = client_a.post(
            "/lab/problems/vector-add/submit/",
            {"backend": "triton", "source": labkit.slow_correct_source(pause_s=3)},
        )
        queued = client_b.post(
            "/lab/problems/vector-add/submit/",
            {"backend": "triton", "source": labkit.correct_source()},
        )
        assert running.status_code == queued.status_code == 302
        sub_a = Submission.objects.get(student__username="student_a")
        sub_b = Submission.objects.get(student__username="student_b")
        labkit.wait_until(
            lambda: Submission.objects.get(pk=sub_a.pk).phase == "testing",
            timeout_s=TIMEOUT_S,
            what="the first job to be running",
            log_path=log,
            proc=worker,
        )
        assert Submission.objects.get(pk=sub_b.pk).status == "queued"  # one worker slot: waits

        _restart_redis_empty()
        # What the periodic reaper does next: B's message went with Redis; it is sent again.
        counts = submissions_reap()
        assert counts["requeued"] == 1 and counts["errors"] == 0, counts

        for sub in (sub_a, sub_b):
            labkit.wait_until(
                lambda sub=sub: not Submission.objects.get(pk=sub.pk).is_pending,
                timeout_s=TIMEOUT_S,
                what=f"submission {sub.pk} to be graded",
                log_path=log,
                proc=worker,
            )
    finally:
        labkit.stop_worker(worker)
    for sub in (sub_a, sub_b):
        sub.refresh_from_db()
        assert sub.status == "accepted", sub.status
        assert SubmissionResult.objects.filter(submission=sub).count() == 1
        events = GradeEvent.objects.filter(item__key=assignment.grade_item_key, student=sub.student)
        assert events.count() == 1 and events.get().new_points == 10
    assert sub_b.jobs.filter(superseded=True).count() == 1  # the lost job was replaced
    assert sub_a.jobs.count() == 1  # the running one was never sent twice
