"""Must hold 3: the worker API refuses missing/wrong credentials, student tokens and off-schema
results; a result posted twice is stored and scored once."""

from __future__ import annotations

import json

import pytest

from accounts.models import ApiToken
from gradebook.models import GradeEvent
from gradinglab.models import Submission, SubmissionResult
from gradinglab.tests.labkit import (
    correct_cuda_source,
    load_doc,
    post_result,
    purge,
    submit,
    submit_and_take,
    take_jobs,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def job(client_a, assignment, django_capture_on_commit_callbacks):
    purge()
    with django_capture_on_commit_callbacks(execute=True):
        response = submit(client_a)
    assert response.status_code == 201, response.content
    [payload] = take_jobs()
    assert set(payload) == {"submission_id", "job_token", "slug", "backend", "source"}
    return payload


def test_no_credential_is_401(client, job) -> None:
    response = client.post(
        "/api/v1/worker/result",
        data=json.dumps({"job_token": job["job_token"], "document": load_doc("accepted")}),
        content_type="application/json",
    )
    assert response.status_code == 401
    assert SubmissionResult.objects.count() == 0


def test_wrong_worker_credential_is_401(client, job, worker_token) -> None:
    response = post_result(client, "wrk_not-a-real-token", job["job_token"], load_doc("accepted"))
    assert response.status_code == 401
    assert Submission.objects.get(pk=job["submission_id"]).status == "queued"


def test_student_api_token_cannot_post_results(client, job, student_a) -> None:
    raw = ApiToken.new_raw()
    ApiToken.objects.create(user=student_a, key_hash=ApiToken.hash(raw))
    response = client.post(
        "/api/v1/worker/result",
        data=json.dumps({"job_token": job["job_token"], "document": load_doc("accepted")}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Token {raw}",
    )
    assert response.status_code == 403
    assert SubmissionResult.objects.count() == 0


def test_student_session_cannot_post_results(client_a, job) -> None:
    response = post_result(client_a, "", job["job_token"], load_doc("accepted"))
    assert response.status_code in (401, 403)
    assert SubmissionResult.objects.count() == 0


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.pop("status"),
        lambda d: d.update(status="excellent"),
        lambda d: d.update(schema_version=1),
        lambda d: d.update(extra_field=1),
        lambda d: d["tests"][0].update(passed="yes"),
    ],
    ids=["missing-status", "unknown-status", "wrong-version", "extra-field", "bad-test-type"],
)
def test_off_schema_result_is_400_and_changes_nothing(
    client, job, worker_token, mutate, caplog
) -> None:
    doc = load_doc("accepted")
    mutate(doc)
    with caplog.at_level("WARNING", logger="gradinglab.api"):
        response = post_result(client, worker_token, job["job_token"], doc)
    assert response.status_code == 400
    assert "worker API refused (400)" in caplog.text  # logged for the operators
    assert SubmissionResult.objects.count() == 0
    assert Submission.objects.get(pk=job["submission_id"]).status == "queued"


def test_oversized_result_is_400(client, job, worker_token) -> None:
    doc = load_doc("accepted")
    doc["padding"] = "x" * 300_000  # bytes; over the 256 KiB cap before any schema check
    response = post_result(client, worker_token, job["job_token"], doc)
    assert response.status_code == 400
    assert "larger than" in response.json()["detail"]


def test_a_result_with_logs_of_four_byte_characters_is_stored(
    client, client_a, assignment, worker_token, django_capture_on_commit_callbacks
) -> None:
    """Logs full of U+1F600 (12 bytes each in the worker's JSON) once made a ~430 KB body that
    was refused with 400, never retried, and ended as a free infrastructure_error: the runner's
    document, as the worker sends it, is within the web's limit and is stored and counted."""
    from gradinglab import conf
    from gradinglab.runner import load_problem, scoring
    from gradinglab.runner.result import RESULT_MAX_BYTES, finish, new_document, wire_bytes

    purge()
    response, job = submit_and_take(
        client_a,
        django_capture_on_commit_callbacks,
        backend="cuda",
        source=correct_cuda_source(),
    )
    assert response.status_code == 201, response.content
    emoji = "\U0001f600"
    doc = new_document(slug="vector-add", backend="cuda", path="cpu")
    doc["log"] = emoji * 100_000
    doc["compile"] = {"ok": False, "log": emoji * 100_000, "ptxas": None}
    finish(doc, status="compile_error", message="nvcc failed")
    scoring.apply(doc, load_problem("vector-add"))  # as grade() does after finish()
    stored = post_result(client, worker_token, job["job_token"], doc)
    assert stored.status_code == 201, stored.content
    assert conf.RESULT_MAX_BYTES >= RESULT_MAX_BYTES  # the web takes what the runner sends
    body = wire_bytes({"job_token": job["job_token"], "document": doc})  # the worker's body
    assert len(body) <= RESULT_MAX_BYTES
    sub = Submission.objects.get(pk=job["submission_id"])
    assert sub.status == "compile_error" and SubmissionResult.objects.count() == 1


def test_unknown_job_token_is_404(client, job, worker_token) -> None:
    response = post_result(client, worker_token, "job_made-up", load_doc("accepted"))
    assert response.status_code == 404


def test_same_result_twice_is_stored_and_scored_once(client, job, worker_token, student_a) -> None:
    first = post_result(client, worker_token, job["job_token"], load_doc("accepted"))
    second = post_result(client, worker_token, job["job_token"], load_doc("accepted"))
    assert (first.status_code, second.status_code) == (201, 200)
    assert second.json() == {"stored": False}
    assert SubmissionResult.objects.count() == 1
    sub = Submission.objects.get(pk=job["submission_id"])
    assert sub.status == "accepted" and str(sub.score) == "10.00"  # CPU-graded: correctness only
    assert (
        GradeEvent.objects.filter(student=student_a, item__key=f"lab:{sub.assignment_id}").count()
        == 1
    )


def test_phase_reports_move_the_submission_to_running(client, job, worker_token) -> None:
    response = client.post(
        "/api/v1/worker/phase",
        data=json.dumps({"job_token": job["job_token"], "phase": "testing"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Worker {worker_token}",
    )
    assert response.status_code == 200
    sub = Submission.objects.get(pk=job["submission_id"])
    assert (sub.status, sub.phase) == ("running", "testing")


def test_heartbeat_marks_worker_online(client, worker_token) -> None:
    from gradinglab.selectors import workers_status

    response = client.post(
        "/api/v1/workers/heartbeat",
        data=json.dumps({"name": "cpu@host", "info": {"kind": "cpu"}}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Worker {worker_token}",
    )
    assert response.status_code == 200
    assert [w["online"] for w in workers_status()] == [True]


def test_heartbeats_schedule_the_reaper_at_most_once_per_interval(
    client, worker_token, django_capture_on_commit_callbacks
) -> None:
    from django.core.cache import cache

    from gradinglab.tests.labkit import take_messages

    cache.delete("gradinglab:reap")
    purge("default")
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(
                "/api/v1/workers/heartbeat",
                data=json.dumps({"name": "cpu@host", "info": {}}),
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Worker {worker_token}",
            )
        assert response.status_code == 200
    messages = take_messages("default", expect=3, timeout_s=3)
    assert messages == [("gradinglab.reap_stuck", {})]  # once, not three times


# What PostgreSQL cannot store in jsonb: NUL, and a lone surrogate (JSON's "\udcff" escape; a
# worker's output decoded with errors="surrogateescape" carries one): each was a 500.
UNSTORABLE = ["\x00", "\udcff"]


@pytest.mark.parametrize("bad", UNSTORABLE, ids=["nul", "lone-surrogate"])
def test_a_result_whose_text_holds_nul_is_stored_and_scored(
    client, job, worker_token, client_a, bad
) -> None:
    """A student's kernel can raise an exception whose message holds a NUL (or print one into the
    compiler's log); jsonb refuses NUL, so the result was a 500 and never stored. The NUL is shown
    as U+FFFD, and so is a lone surrogate."""
    doc = load_doc("wrong_answer")
    doc["message"] = f"ValueError: a{bad}b"
    doc["tests"][0]["message"] = f"out: {bad}"
    doc["tests"][1]["name"] = f"case {bad}"
    response = post_result(client, worker_token, job["job_token"], doc)
    assert response.status_code == 201, response.content
    sub = Submission.objects.get(pk=job["submission_id"])
    stored = SubmissionResult.objects.get(submission=sub).document
    assert sub.status == "wrong_answer"
    assert (
        stored["message"] == "ValueError: a\ufffdb"
        and stored["tests"][0]["message"] == "out: \ufffd"
        and stored["tests"][1]["name"] == "case \ufffd"
    )
    page = client_a.get(f"/lab/submissions/{sub.pk}/")
    assert page.status_code == 200 and "a\ufffdb" in page.content.decode()


@pytest.mark.parametrize("bad", UNSTORABLE, ids=["nul", "lone-surrogate"])
def test_a_heartbeat_whose_info_holds_nul_is_stored(client, worker_token, bad) -> None:
    from gradinglab.models import WorkerNode

    response = client.post(
        "/api/v1/workers/heartbeat",
        data=json.dumps({"info": {"device": f"GPU{bad} 0"}}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Worker {worker_token}",
    )
    assert response.status_code == 200
    assert WorkerNode.objects.get().info == {"device": "GPU\ufffd 0"}
