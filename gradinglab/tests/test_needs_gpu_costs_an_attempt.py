"""protocol.check_done's claim: a sealed harness may say needs_gpu on the CPU path because that
verdict "is no pass and costs an attempt like any other verdict, so claiming it gains nothing".
Shown where that is decided, on the web side: the stored submission counts as an attempt and earns
no points. (infrastructure_error, which a sealed harness may not claim, is the free retry.)"""

from __future__ import annotations

import pytest

from gradinglab.models import Submission
from gradinglab.tests.labkit import load_doc, post_result, purge, submit, take_jobs

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(client_a, assignment, django_capture_on_commit_callbacks):
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(client_a).status_code == 201
    [payload] = take_jobs()
    return payload


def test_a_needs_gpu_verdict_costs_an_attempt_and_scores_nothing(client, job, worker_token) -> None:
    doc = load_doc("wrong_answer")
    doc.update(status="needs_gpu", message="claimed by the sandbox")
    response = post_result(client, worker_token, job["job_token"], doc)
    assert response.status_code == 201, response.content
    sub = Submission.objects.get(pk=job["submission_id"])
    assert (sub.status, sub.counts_as_attempt) == ("needs_gpu", True)
    assert not sub.score  # no points (None: the run says nothing about the work)
