"""A score the quiz releases after the close (review_points_after off) is not on the quiz's own
page, nor in the quiz list, before then.

The review said "成绩将在测验截止后公布" and the quiz list hid the best score, but the quiz page's
"我的作答" table showed each submitted attempt's score: with several attempts a student could
submit, read the score there and try again until every answer scored, before the close.
"""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from quizzes.models import Attempt, Quiz
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with


def _attempts_table(client, quiz: Quiz) -> str:
    page = client.get(f"/quizzes/{quiz.slug}/").content.decode()
    return page.split('id="my-attempts"')[1].split("</table>")[0]


def _list_row(client, quiz: Quiz) -> str:
    page = client.get("/quizzes/").content.decode()
    return page.split(f'href="/quizzes/{quiz.slug}/"')[1].split("</tr>")[0]


def _held_quiz_answered_right(student, slug: str) -> Quiz:
    """A graded quiz (3 attempts, closes in an hour) that shows points only after the close,
    with one right answer of ``student``'s submitted."""
    q = question_single(f"{slug}-q", correct="b")
    quiz = quiz_with(
        [q],
        slug=slug,
        max_attempts=3,
        grade_max_points=Decimal("10"),
        closes_at=timezone.now() + timedelta(hours=1),
        review_points_after=False,
    )
    attempt = attempt_start(quiz=quiz, student=student)
    answer_save(attempt_id=attempt.pk, student=student, question_id=q.pk, data={"value": ["b"]})
    attempt_submit(attempt_id=attempt.pk)
    assert Attempt.objects.get(pk=attempt.pk).score == Decimal("10.00")
    return quiz


@pytest.mark.django_db
def test_the_score_waits_for_the_close_on_the_quiz_page(student_a, client_a) -> None:
    quiz = _held_quiz_answered_right(student_a, "hidden-score")
    table = _attempts_table(client_a, quiz)
    assert "10.00" not in table and "截止后公布" in table
    listed = _list_row(client_a, quiz)  # the quiz list's best score waits too (quiz_rows)
    assert "10.00" not in listed and "截止后公布" in listed

    Quiz.objects.filter(pk=quiz.pk).update(closes_at=timezone.now() - timedelta(minutes=1))
    assert "10.00 / 10" in _attempts_table(client_a, quiz)
    assert "10.00 / 10" in _list_row(client_a, quiz)


@pytest.mark.django_db
def test_the_gradebook_also_waits_for_the_close(student_a, client_a) -> None:
    quiz = _held_quiz_answered_right(student_a, "hidden-grade")
    grades = client_a.get("/grades/api/mine").json()
    row = next(i for i in grades["items"] if i["key"] == quiz.gradebook_key)
    assert row["points"] is None
