"""A worker whose phase report is refused (403: a credential of another kind than the job's queue)
stops grading that job and posts nothing; its Celery task ends normally, so the message is
acknowledged, not re-run. Before, it ran the student's code to the end and then had its result
refused too.

Through the HTTP API of a live server with real worker credentials, PostgreSQL and the broker."""

from __future__ import annotations

import pytest

from gradinglab.models import SubmissionResult
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import purge, submit_and_take
from gradinglab.worker.client import WorkerClient
from gradinglab.worker.config import WorkerConfig
from gradinglab.worker.tasks import REFUSED, execute


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_refused_worker_stops_at_its_first_phase_and_posts_nothing(
    live_server, client_a, assignment, django_capture_on_commit_callbacks, caplog
) -> None:
    purge()
    response, job = submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.content
    token = worker_token_create(name="h200-other", kind="h200")  # the job is on grade-cpu
    other = WorkerClient(WorkerConfig(live_server.url, token, "h200", "h200-other"))
    with caplog.at_level("INFO"):
        assert execute(job, client=other) == REFUSED
    assert caplog.text.count("worker API refused (403) from h200-other") == 1  # its first phase
    assert f"submission {job['submission_id']} not graded here" in caplog.text
    assert "worker/phase: HTTP 403" in caplog.text and "worker/result" not in caplog.text
    assert not SubmissionResult.objects.exists()
