"""A regrade request's ref must name the requesting student's own submission or quiz attempt, of the
item asked about (issue 13: a ref could name another student's submission)."""

from __future__ import annotations

import pytest

from gradebook.models import GradeItem, RegradeRequest
from gradinglab.services.results import assignment_grade_item
from gradinglab.tests.labkit import make_assignment, purge, submit_and_take
from quizzes.services import attempt_start, quiz_gradebook_item
from quizzes.tests.factories import question_single, quiz_with

NEW = "/grades/regrades/new/"
pytestmark = pytest.mark.django_db


def _ask(client, item: GradeItem, ref: str):
    return client.post(NEW, {"item": item.key, "ref": ref, "message": "请复核第 2 个用例"})


@pytest.fixture
def lab(client_a, client_b, django_capture_on_commit_callbacks):
    assignment = make_assignment()
    purge()
    submit_and_take(client_a, django_capture_on_commit_callbacks)
    submit_and_take(client_b, django_capture_on_commit_callbacks)
    item = assignment_grade_item(assignment)
    return (
        item,
        assignment.submissions.get(student__username="student_a"),
        assignment.submissions.get(student__username="student_b"),
    )


def test_submission_ref_must_be_ones_own(client_a, lab) -> None:
    item, own, foreign = lab
    refused = _ask(client_a, item, f"submission:{foreign.pk}")
    assert refused.status_code == 400 and "不是你在此项下的提交或作答" in refused.content.decode()
    assert not RegradeRequest.objects.exists()
    assert _ask(client_a, item, f"submission:{own.pk}").status_code == 302
    assert RegradeRequest.objects.get().ref == f"submission:{own.pk}"


@pytest.mark.parametrize(
    "ref",
    ["submission:99999999", "submission:" + "9" * 30, "submission:x", "nonsense:1", "submission:"],
)
def test_unknown_or_malformed_refs_are_refused(client_a, lab, ref) -> None:
    item, _own, _foreign = lab
    assert _ask(client_a, item, ref).status_code == 400
    assert not RegradeRequest.objects.exists()


def test_own_submission_of_another_item_is_refused(client_a, lab) -> None:
    _item, own, _foreign = lab
    other = GradeItem.objects.create(key="exam:z", title="z", kind="exam", max_points=10)
    assert _ask(client_a, other, f"submission:{own.pk}").status_code == 400


def test_quiz_attempt_ref_must_be_ones_own(client_a, student_a, student_b) -> None:
    quiz = quiz_with([question_single("rf-1")])
    item = quiz_gradebook_item(quiz)
    own = attempt_start(quiz=quiz, student=student_a)
    foreign = attempt_start(quiz=quiz, student=student_b)
    assert _ask(client_a, item, f"quiz-attempt:{foreign.pk}").status_code == 400
    assert _ask(client_a, item, f"quiz-attempt:{own.pk}").status_code == 302
