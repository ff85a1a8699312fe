"""The "迟交" label of an attempt comes from the gradebook's rule at display time (the student's own
due date: the quiz's close time or their extension), the rule the penalty comes from. Before, it
was fixed at submit time, so after an extension or a later close time the quiz page, the person
page and attempts.csv still said late while the gradebook charged 0 %."""

from __future__ import annotations

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook.models import GradeItem
from gradebook.selectors import student_view
from gradebook.services import extension_grant
from quizzes import clock
from quizzes.models import Attempt, Quiz
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import late_quiz
from quizzes.tests.test_settings_rescore import settings_data

pytestmark = pytest.mark.django_db

DUE = (timezone.now() - timedelta(days=1)).replace(second=0, microsecond=0)


@pytest.fixture
def attempt(db, student_a, monkeypatch) -> Attempt:
    quiz = late_quiz(slug="late-label", closes_at=DUE, late_days=5, penalty="50")
    monkeypatch.setattr(clock, "now", lambda: DUE + timedelta(hours=1))
    attempt = attempt_start(quiz=quiz, student=student_a)
    answer_save(attempt_id=attempt.pk, student=student_a, question_id=attempt.question_ids[0],
                data={"value": ["a"]})  # fmt: skip
    return attempt_submit(attempt_id=attempt.pk)


def _said_late(attempt: Attempt, client_a, client_instructor) -> dict[str, bool]:
    quiz, student = attempt.quiz, attempt.student
    detail = client_a.get(f"/quizzes/{quiz.slug}/").content.decode()
    review = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    person = client_instructor.get(f"/staff/people/{student.pk}/").content.decode()
    rows = list(csv.DictReader(io.StringIO(
        client_instructor.get(f"/quizzes/{quiz.slug}/attempts.csv").content.decode("utf-8-sig")
    )))  # fmt: skip
    row = next(r for r in student_view(student)["rows"] if r.item.key == quiz.gradebook_key)
    return {
        "quiz page": "（迟交）" in detail,
        "review": "迟交：" in review,
        "person page": "· 迟交" in person,
        "csv": rows[0]["late"] == "是",
        "gradebook charges": row.result.penalty_percent > 0,
    }


def test_late_everywhere_while_the_gradebook_charges_it(
    attempt, client_a, client_instructor
) -> None:
    assert set(_said_late(attempt, client_a, client_instructor).values()) == {True}


def test_an_extension_makes_it_on_time_everywhere(
    attempt, instructor, client_a, client_instructor
) -> None:
    item = GradeItem.objects.get(key=attempt.quiz.gradebook_key)
    extension_grant(student=attempt.student, item=item, actor=instructor, extra_days=1)
    assert set(_said_late(attempt, client_a, client_instructor).values()) == {False}


def test_a_later_close_time_makes_it_on_time_everywhere(
    attempt, client_a, client_instructor
) -> None:
    quiz = Quiz.objects.get()
    later = timezone.localtime(DUE + timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/", settings_data(quiz, closes_at=later)
    )
    assert response.status_code == 302
    assert set(_said_late(attempt, client_a, client_instructor).values()) == {False}
