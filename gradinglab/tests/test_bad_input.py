"""Issue 13's 500s in the lab, each now a clear 4xx or form error: non-object or absurdly nested
JSON bodies to the worker API, a result whose created_at is no date-time, an assignment with
rate_limit_count=0, negative points or penalty, a gpu_kind no worker consumes; and the reaper goes
on past a submission it cannot handle."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import IntegrityError, transaction
from django.utils import timezone

from gradinglab import conf
from gradinglab.models import Assignment, Submission, SubmissionResult
from gradinglab.services import reaper, submissions
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db

NESTED = "[" * 50_000 + "]" * 50_000
BODIES = ["[]", "1", "null", '"text"', NESTED, '{"job_token": "x", "document": ' + NESTED + "}"]
BODY_IDS = ["list", "number", "null", "string", "nested-50000", "nested-document"]


@pytest.mark.parametrize("path", ["/api/v1/worker/result", "/api/v1/workers/heartbeat"])
@pytest.mark.parametrize("body", BODIES, ids=BODY_IDS)
def test_non_object_or_deep_json_is_400(client, worker_token, path, body) -> None:
    response = client.post(
        path, data=body, content_type="application/json", **labkit.worker_headers(worker_token)
    )
    assert response.status_code == 400, response.content[:200]
    assert "detail" in response.json()


def test_heartbeat_info_must_be_an_object(client, worker_token) -> None:
    for info in ([1, 2], "busy", 3):
        response = client.post(
            "/api/v1/workers/heartbeat",
            data=json.dumps({"info": info}),
            content_type="application/json",
            **labkit.worker_headers(worker_token),
        )
        assert response.status_code == 400


@pytest.fixture
def job(client_a, assignment, django_capture_on_commit_callbacks):
    labkit.purge()
    _, payload = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    return payload


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("created_at", "yesterday"),
        ("created_at", "2026-13-45T99:00:00Z"),
        ("problem", "../../etc/passwd"),
    ],
)
def test_result_formats_are_enforced(client, job, worker_token, field, value) -> None:
    doc = labkit.load_doc("accepted")
    doc[field] = value
    response = labkit.post_result(client, worker_token, job["job_token"], doc)
    assert response.status_code == 400 and field in response.json()["detail"]
    assert SubmissionResult.objects.count() == 0
    good = labkit.post_result(client, worker_token, job["job_token"], labkit.load_doc("accepted"))
    assert good.status_code == 201


# --- assignment admin --------------------------------------------------------------------------


def _admin_form(assignment: Assignment, **changes: str) -> dict[str, str]:
    form = {
        "problem": str(assignment.problem_id),
        "title": "Vector add",
        "points": "10",
        "published": "on",
        "late_policy": "penalty",
        "late_penalty_per_day": "10",
        "late_penalty_cap": "100",
        "gpu_kind": "",
        "rate_limit_count": "10",
        "rate_limit_minutes": "10",
    }
    form.update(changes)
    return form


@pytest.mark.parametrize(
    "changes",
    [
        {"points": "-5"},
        {"points": "0"},
        {"late_penalty_cap": "-1"},
        {"late_penalty_per_day": "250"},
        {"rate_limit_count": "0"},
        {"rate_limit_minutes": "0"},
        {"gpu_kind": "evil<script>"},
        {"gpu_kind": "b300"},  # not in PDC_GPU_KINDS: no worker consumes grade-gpu-b300
    ],
    ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()),
)
def test_admin_refuses_bad_values_with_a_form_error(client_instructor, changes) -> None:
    assignment = labkit.make_assignment()
    url = f"/admin/gradinglab/assignment/{assignment.pk}/change/"
    response = client_instructor.post(url, _admin_form(assignment, **changes))
    assert response.status_code == 200  # the form again, not a redirect and not a 500
    [field] = changes
    assert field in response.context["adminform"].form.errors
    assignment.refresh_from_db()
    assert assignment.title == ""  # nothing saved


def test_admin_accepts_a_configured_gpu_kind(client_instructor, settings) -> None:
    assignment = labkit.make_assignment()
    url = f"/admin/gradinglab/assignment/{assignment.pk}/change/"
    response = client_instructor.post(url, _admin_form(assignment, gpu_kind=settings.GPU_KINDS[0]))
    assert response.status_code == 302
    assignment.refresh_from_db()
    assert assignment.queue_name == f"grade-gpu-{settings.GPU_KINDS[0]}"


@pytest.mark.parametrize(
    "values",
    [{"points": -5}, {"late_penalty_cap": -1}, {"rate_limit_count": 0}, {"rate_limit_minutes": 0}],
)
def test_database_refuses_bad_values_from_any_writer(values) -> None:
    assignment = labkit.make_assignment()
    with pytest.raises(IntegrityError), transaction.atomic():
        Assignment.objects.filter(pk=assignment.pk).update(**values)


def test_unconfigured_gpu_kind_refuses_the_submission_instead_of_a_lost_job(client_a) -> None:
    assignment = labkit.make_assignment()
    Assignment.objects.filter(pk=assignment.pk).update(gpu_kind="b300")  # written before validation
    response = labkit.submit(client_a)
    assert response.status_code == 400 and "b300" in response.json()["detail"]
    assert not Submission.objects.exists()


# --- reaper ------------------------------------------------------------------------------------


def test_one_failing_submission_does_not_stop_the_reaper(
    client_a, client_b, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    labkit.make_assignment()
    labkit.purge()
    labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    labkit.submit_and_take(client_b, django_capture_on_commit_callbacks)
    poisoned, healthy = Submission.objects.order_by("pk")
    real_dispatch = submissions.job_dispatch

    def dispatch(submission, now):  # fault injected for one row: the broker refuses its message
        if submission.pk == poisoned.pk:
            raise RuntimeError("poisoned row")
        return real_dispatch(submission, now)

    monkeypatch.setattr(reaper, "job_dispatch", dispatch)
    later = timezone.now() + timedelta(seconds=conf.QUEUED_STUCK_S + 1)
    with django_capture_on_commit_callbacks(execute=True):
        counts = reaper.submissions_reap(now=later)
    assert counts == {"requeued": 1, "failed": 0, "errors": 1}
    assert f"reaping submission {poisoned.pk} failed" in caplog.text
    healthy.refresh_from_db()
    poisoned.refresh_from_db()
    assert healthy.dispatches == 2 and poisoned.dispatches == 1
    # The poisoned row's savepoint was rolled back: its job is not marked superseded.
    assert poisoned.jobs.filter(superseded=False).count() == 1


def test_broker_down_at_submit_keeps_the_submission_for_the_reaper(
    client_a, monkeypatch, caplog, django_capture_on_commit_callbacks
) -> None:
    from kombu.exceptions import OperationalError

    from pdcsite.celery import app

    labkit.make_assignment()

    def refuse(*args, **kwargs):  # the broker boundary: Redis refusing connections
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(app, "send_task", refuse)
    with django_capture_on_commit_callbacks(execute=True):
        response = labkit.submit(client_a)
    assert response.status_code == 201  # stored and queued; not a 500 after the commit
    sub = Submission.objects.get()
    assert sub.status == "queued" and sub.jobs.count() == 1
    assert f"could not send job of submission {sub.pk}" in caplog.text
