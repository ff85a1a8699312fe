"""Must hold 5: rate limit with a clear message and the next allowed time; late submissions follow
the assignment's late policy (window here, penalty in the gradebook); infrastructure errors (from a
worker or from the reaper giving up) do not count as attempts. Bad input is refused, nothing stored."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade
from gradinglab import conf
from gradinglab.models import GradingJob, Submission
from gradinglab.runner.source import MAX_SOURCE_BYTES
from gradinglab.services.reaper import submissions_reap
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db


def infra_doc() -> dict:
    doc = labkit.load_doc("accepted")
    doc.update(status="infrastructure_error", gradable=False, tests=[], score=None)
    doc["message"] = "the sandbox could not start"
    return doc


def test_rate_limit_refuses_with_next_allowed_time(client_a, django_capture_on_commit_callbacks):
    labkit.make_assignment(rate_limit_count=2, rate_limit_minutes=10)
    labkit.purge()
    first, _ = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    second, _ = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert (first.status_code, second.status_code) == (201, 201)
    third = labkit.submit(client_a)
    assert third.status_code == 429
    body = third.json()
    assert "每 10 分钟最多 2 次" in body["detail"] and "下次可提交时间" in body["detail"]
    oldest = Submission.objects.order_by("created_at").first().created_at
    assert body["next_allowed_at"] == (oldest + timedelta(minutes=10)).isoformat()
    assert Submission.objects.count() == 2  # nothing stored for the refused one
    # The web form says the same on the problem page.
    page = client_a.post(
        "/lab/problems/vector-add/submit/", {"backend": "triton", "source": "x = 1"}, follow=True
    )
    assert "提交过于频繁" in page.content.decode()
    assert Submission.objects.count() == 2


def test_rate_limit_window_slides(student_a) -> None:
    from gradinglab.services.submissions import RateLimited, submission_create

    assignment = labkit.make_assignment(rate_limit_count=1, rate_limit_minutes=10)
    start = timezone.now()
    submission_create(
        student=student_a,
        assignment=assignment,
        backend="triton",
        source=labkit.correct_source() + "# a\n",
        now=start,
    )
    with pytest.raises(RateLimited):
        submission_create(
            student=student_a, assignment=assignment, backend="triton", source=labkit.correct_source() + "# b\n",
            now=start + timedelta(minutes=9),
        )  # fmt: skip
    later = submission_create(
        student=student_a, assignment=assignment, backend="triton", source=labkit.correct_source() + "# c\n",
        now=start + timedelta(minutes=10, seconds=1),
    )  # fmt: skip
    assert later.pk


def test_late_submission_is_marked_and_penalised_by_the_gradebook(
    client, client_a, student_a, worker_token, django_capture_on_commit_callbacks
) -> None:
    now = timezone.now()
    assignment = labkit.make_assignment(
        due_at=now - timedelta(hours=1),
        late_until=now + timedelta(days=2),
        late_policy="penalty",
        late_penalty_per_day=Decimal("10"),
    )
    labkit.purge()
    response, job = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert response.status_code == 201 and response.json()["late"] is True
    assert (
        labkit.post_result(
            client, worker_token, job["job_token"], labkit.load_doc("accepted")
        ).status_code
        == 201
    )
    sub = Submission.objects.get()
    grade = Grade.objects.get(student=student_a, item__key=assignment.grade_item_key)
    assert grade.points == 10 and grade.submitted_at == sub.created_at  # raw score + its time
    assert grade.item.late_policy == "penalty" and grade.item.due_at == assignment.due_at
    from gradebook.selectors import student_view

    row = {r.item.key: r for r in student_view(student_a)["rows"]}[assignment.grade_item_key]
    assert row.result.days_late == 1 and row.result.penalty_percent == 10
    assert row.result.counted == Decimal("9.00")


def test_after_the_late_window_nothing_is_accepted(client_a) -> None:
    now = timezone.now()
    labkit.make_assignment(due_at=now - timedelta(days=3), late_until=now - timedelta(days=1))
    response = labkit.submit(client_a)
    assert response.status_code == 400 and "不再接受提交" in response.json()["detail"]
    assert Submission.objects.count() == 0


def test_no_late_window_means_closed_at_due(client_a) -> None:
    labkit.make_assignment(due_at=timezone.now() - timedelta(minutes=1))
    assert labkit.submit(client_a).status_code == 400
    assert Submission.objects.count() == 0


@pytest.mark.parametrize(
    ("payload", "message"),
    [
        ({"backend": "cuda", "source": "   "}, "代码为空"),
        ({"backend": "triton", "source": "x" * (MAX_SOURCE_BYTES + 1)}, ""),
        ({"backend": "triton", "source": "a\x00b"}, ""),  # DRF refuses NUL itself
    ],
)
def test_bad_input_is_refused_and_nothing_stored(client_a, assignment, payload, message) -> None:
    import json

    response = client_a.post(
        "/api/v1/submissions",
        data=json.dumps({"problem": "vector-add", **payload}),
        content_type="application/json",
    )
    assert response.status_code == 400
    assert message in json.dumps(response.json(), ensure_ascii=False)
    assert Submission.objects.count() == 0


def test_unpublished_assignment_is_invisible_to_students(client_a) -> None:
    labkit.make_assignment(published=False)
    assert client_a.get("/lab/problems/vector-add/").status_code == 404
    assert labkit.submit(client_a).status_code == 404


def test_worker_infrastructure_errors_are_retried_then_cost_no_attempt(
    client, client_a, worker_token, django_capture_on_commit_callbacks
) -> None:
    labkit.make_assignment(rate_limit_count=1, rate_limit_minutes=60)
    labkit.purge()
    response, job = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert response.status_code == 201
    for attempt in range(conf.MAX_DISPATCHES):
        with django_capture_on_commit_callbacks(execute=True):
            posted = labkit.post_result(client, worker_token, job["job_token"], infra_doc())
        assert posted.status_code == 201
        if attempt < conf.MAX_DISPATCHES - 1:
            [job] = labkit.take_jobs()  # re-dispatched with a fresh job token
    sub = Submission.objects.get()
    assert sub.status == "infrastructure_error" and not sub.counts_as_attempt
    assert sub.dispatches == conf.MAX_DISPATCHES and sub.score is None
    assert not Grade.objects.exists()
    # With a limit of one attempt per hour, the student may still submit: the failure was ours.
    again, _ = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert again.status_code == 201
    page = client_a.get(f"/lab/submissions/{sub.pk}/")
    assert "不计入提交次数" in page.content.decode()


def test_reaper_requeues_stuck_jobs_then_gives_up_without_an_attempt(
    client, client_a, worker_token, django_capture_on_commit_callbacks
) -> None:
    labkit.make_assignment()
    labkit.purge()
    response, first_job = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    sub = Submission.objects.get()
    assert submissions_reap() == {"requeued": 0, "failed": 0, "errors": 0}  # not stuck yet
    later = timezone.now() + timedelta(seconds=conf.QUEUED_STUCK_S + 1)
    for _ in range(conf.MAX_DISPATCHES - 1):
        with django_capture_on_commit_callbacks(execute=True):
            assert submissions_reap(now=later) == {"requeued": 1, "failed": 0, "errors": 0}
        assert len(labkit.take_jobs()) == 1
        later += timedelta(seconds=conf.QUEUED_STUCK_S + 1)
    # The replaced job can no longer post a result.
    stale = labkit.post_result(
        client, worker_token, first_job["job_token"], labkit.load_doc("accepted")
    )
    assert stale.status_code == 409
    assert submissions_reap(now=later) == {"requeued": 0, "failed": 1, "errors": 0}
    sub.refresh_from_db()
    assert sub.status == "infrastructure_error" and not sub.counts_as_attempt
    assert GradingJob.objects.filter(submission=sub).count() == conf.MAX_DISPATCHES
    assert not Grade.objects.exists()


def test_running_job_is_stuck_only_after_its_time_limit(
    client, client_a, worker_token, django_capture_on_commit_callbacks
) -> None:
    import json

    labkit.make_assignment()
    labkit.purge()
    _, job = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    client.post(
        "/api/v1/worker/phase",
        data=json.dumps({"job_token": job["job_token"], "phase": "testing"}),
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Worker {worker_token}",
    )
    soon = timezone.now() + timedelta(seconds=conf.RUNNING_STUCK_S - 5)
    assert submissions_reap(now=soon) == {"requeued": 0, "failed": 0, "errors": 0}
    late = timezone.now() + timedelta(seconds=conf.RUNNING_STUCK_S + 5)
    with django_capture_on_commit_callbacks(execute=True):
        assert submissions_reap(now=late) == {"requeued": 1, "failed": 0, "errors": 0}
    assert len(labkit.take_jobs()) == 1
