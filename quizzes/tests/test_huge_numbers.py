"""A numeric answer like 1e999999999 is a clear form error, never a 500 (decimal.Overflow once made
autosave, submit, the attempt page and the periodic sweep fail); the sweep handles each attempt on
its own, so one bad attempt never leaves the others open past their deadline."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse

from quizzes import clock
from quizzes.models import Answer, Attempt, Question
from quizzes.services import attempt_start
from quizzes.tasks import expire_overdue_attempts
from quizzes.tests.factories import question_numeric, question_single, quiz_with

HUGE = "1e999999999"


@pytest.fixture
def numeric_quiz(db):
    q = question_numeric("big-1", answer="10")
    return quiz_with([q], review_correctness_during=True, time_limit_minutes=10), q


def _answer_url(attempt: Attempt, question: Question) -> str:
    return reverse("quizzes:answer", args=[attempt.pk, question.pk])


@pytest.mark.parametrize("raw", [HUGE, "-1e999999999", "1e-999999999", "9" * 40 + "e99"])
def test_autosave_refuses_out_of_range_numbers(numeric_quiz, student_a, client_a, raw) -> None:
    quiz, q = numeric_quiz
    attempt = attempt_start(quiz=quiz, student=student_a)
    response = client_a.post(_answer_url(attempt, q), {"value": raw})
    assert response.status_code == 200 and response["X-Quiz-Saved"] == "0"
    assert "超出" in response.content.decode()
    assert not Answer.objects.filter(attempt=attempt).exists()
    ok = client_a.post(_answer_url(attempt, q), {"value": "10"})
    assert ok["X-Quiz-Saved"] == "1"


def test_a_stored_huge_answer_neither_breaks_the_page_nor_the_submit(
    numeric_quiz, student_a, client_a
) -> None:
    quiz, q = numeric_quiz
    attempt = attempt_start(quiz=quiz, student=student_a)
    # As the old code stored it before this check existed.
    Answer.objects.create(attempt=attempt, question=q, value=HUGE, saved_at=clock.now())
    assert client_a.get(reverse("quizzes:attempt", args=[attempt.pk])).status_code == 200
    submitted = client_a.post(reverse("quizzes:submit", args=[attempt.pk]))
    assert submitted.status_code == 302
    attempt.refresh_from_db()
    assert attempt.state == Attempt.State.SUBMITTED and attempt.raw_score == 0
    assert client_a.get(reverse("quizzes:review", args=[attempt.pk])).status_code == 200


def test_one_broken_attempt_does_not_stop_the_sweep(student_a, student_b, caplog) -> None:
    good_q, broken_q = question_single("sw-1"), question_single("sw-2")
    quiz = quiz_with([good_q, broken_q], time_limit_minutes=10)
    broken = attempt_start(quiz=quiz, student=student_a)
    good = attempt_start(quiz=quiz, student=student_b)
    # A question deleted from the bank under an open attempt: grading it raises.
    Attempt.objects.filter(pk=broken.pk).update(
        question_ids=[*broken.question_ids, 987654], deadline=clock.now() - timedelta(hours=2)
    )
    Attempt.objects.filter(pk=good.pk).update(deadline=clock.now() - timedelta(hours=1))
    assert expire_overdue_attempts() == 1
    good.refresh_from_db()
    broken.refresh_from_db()
    assert good.state == Attempt.State.SUBMITTED and good.auto_submitted
    assert broken.state == Attempt.State.IN_PROGRESS  # left for staff, and logged
    assert f"attempt {broken.pk}" in caplog.text
