"""Must hold 6: regrade-all of an assignment shows the score changes first (a GET writes nothing, not
even an audit row); applying (POST) records each change through the gradebook with the instructor as actor."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.models import Grade, GradeEvent
from gradinglab.models import Problem, RegradeRun, Submission
from gradinglab.tests.labkit import (
    correct_source,
    load_doc,
    post_result,
    purge,
    submit_and_take,
    take_jobs,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def graded(
    client, client_a, client_b, assignment, worker_token, django_capture_on_commit_callbacks
):
    purge()
    for student_client, doc in ((client_a, "accepted"), (client_b, "wrong_answer")):
        response, job = submit_and_take(student_client, django_capture_on_commit_callbacks)
        assert response.status_code == 201
        assert post_result(client, worker_token, job["job_token"], load_doc(doc)).status_code == 201
    return assignment


def test_dry_run_lists_changes_without_applying_then_apply_is_audited(
    graded, client_instructor, client_ta, student_a, instructor
) -> None:
    """Rescore (recompute stored results) is its own permission, the instructors' (issue 14)."""
    assignment = graded
    assignment.points = Decimal("20")  # staff raised the assignment's worth after grading
    assignment.save()
    before_events = GradeEvent.objects.count()
    url = f"/admin/gradinglab/assignment/{assignment.pk}/rescore/"

    preview = client_instructor.get(url)
    assert preview.status_code == 200
    html = preview.content.decode()
    assert "student_a" in html and "10.00" in html and "20.00" in html
    assert html.count("<h1") == 1  # the admin's title, not a second one of our own
    assert "student_b" not in html  # 0 points stays 0: no change to list
    grade = Grade.objects.get(student=student_a, item__key=assignment.grade_item_key)
    assert grade.points == Decimal("10.00")  # nothing applied
    assert GradeEvent.objects.count() == before_events
    assert Submission.objects.get(student=student_a).score == Decimal("10.00")
    assert not RegradeRun.objects.exists()  # a GET writes nothing (issue 13)
    assert client_ta.post(url).status_code == 403  # a TA may re-run, not rescore

    applied = client_instructor.post(url)
    assert applied.status_code == 302
    grade.refresh_from_db()
    assert grade.points == Decimal("20.00")
    event = GradeEvent.objects.filter(student=student_a).latest("at")
    assert event.actor == instructor and event.old_points == 10 and event.new_points == 20
    assert "regrade run" in event.reason
    run = RegradeRun.objects.get()
    assert not run.dry_run and run.actor == instructor and run.changes[0]["new"] == "20.00"
    # Applying again changes nothing more.
    assert client_instructor.get(url).content.decode().count("student_a") == 0


def test_only_those_who_may_rescore_see_the_link(graded, client_instructor, client_ta) -> None:
    """A TA was shown "重新计分全部" and followed it to a 403 page."""
    page = f"/admin/gradinglab/assignment/{graded.pk}/change/"
    assert 'id="regrade-all"' in client_instructor.get(page).content.decode()
    ta_page = client_ta.get(page).content.decode()
    assert 'id="regrade-all"' not in ta_page and 'id="similarity-link"' in ta_page


def test_scoring_rule_change_is_reapplied_to_stored_results(
    client, client_a, gpu_worker_token, ta, django_capture_on_commit_callbacks
) -> None:
    from gradinglab.services.rescore import regrade_apply, regrade_plan
    from gradinglab.tests.labkit import gpu_doc, make_assignment

    gpu = make_assignment(gpu_kind="h100", points=Decimal("100"))
    purge("grade-gpu-h100")
    with django_capture_on_commit_callbacks(execute=True):
        response = client_a.post(
            "/api/v1/submissions",
            data={"problem": "vector-add", "backend": "triton", "source": correct_source(),
                  "assignment": gpu.pk},
        )  # fmt: skip
    assert response.status_code == 201
    [job] = take_jobs("grade-gpu-h100")
    # 60 correctness + 40 * (0.35 / 0.7) performance = 80 of 100.
    assert (
        post_result(client, gpu_worker_token, job["job_token"], gpu_doc(roofline=0.35)).status_code
        == 201
    )
    assert Submission.objects.get(assignment=gpu).score == Decimal("80.00")
    problem = Problem.objects.get(slug="vector-add")
    problem.scoring = {**problem.scoring, "target_fraction_of_roofline": 0.35}
    problem.save()
    [change] = regrade_plan(assignment=gpu)
    assert (change.old, change.new) == (Decimal("80.00"), Decimal("100.00"))
    regrade_apply(assignment=gpu, actor=ta, dry_run=False)
    assert Grade.objects.get(item__key=gpu.grade_item_key).points == Decimal("100.00")


def test_students_cannot_open_the_regrade_page(graded, client_a) -> None:
    response = client_a.get(f"/admin/gradinglab/assignment/{graded.pk}/rescore/")
    assert response.status_code == 302  # to the admin login
    assert not RegradeRun.objects.exists()


def test_rerun_selected_requeues_with_a_new_round(
    graded, client_ta, django_capture_on_commit_callbacks
) -> None:
    sub = Submission.objects.get(student__username="student_a")
    with django_capture_on_commit_callbacks(execute=True):
        response = client_ta.post(
            "/admin/gradinglab/submission/",
            {"action": "rerun_selected", "_selected_action": [sub.pk]},
        )
    assert response.status_code == 302
    sub.refresh_from_db()
    assert (sub.status, sub.round) == ("queued", 2)
    [job] = take_jobs()
    assert job["submission_id"] == sub.pk


def test_ta_override_goes_through_the_gradebook(graded, client_ta, student_a, ta) -> None:
    sub = Submission.objects.get(student=student_a)
    response = client_ta.post(
        f"/admin/gradinglab/submission/{sub.pk}/override/",
        {"scope": "item", "points": "7.5", "reason": "partial credit after review"},
    )
    assert response.status_code == 302
    grade = Grade.objects.get(student=student_a, item__key=graded.grade_item_key)
    assert grade.points == Decimal("7.50") and grade.override_points == Decimal("7.50")
    event = GradeEvent.objects.filter(student=student_a).latest("at")
    assert event.action == "override" and event.actor == ta and "partial credit" in event.reason


def test_flag_hides_from_leaderboard_and_comment_reaches_student(
    graded, client_ta, client_a
) -> None:
    sub = Submission.objects.get(student__username="student_a")
    response = client_ta.post(
        "/admin/gradinglab/submission/",
        {"action": "flag_selected", "_selected_action": [sub.pk], "apply": "1", "reason": "掩码"},
    )
    assert response.status_code == 302
    sub.refresh_from_db()
    assert sub.flagged
    Submission.objects.filter(pk=sub.pk).update(staff_comment="Nice masking.")
    assert "Nice masking." in client_a.get(f"/lab/submissions/{sub.pk}/").content.decode()
