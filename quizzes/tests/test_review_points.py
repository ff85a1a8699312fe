"""The review shows each question's points in *this quiz* (the pool's or the drawing rule's value,
fixed in the attempt), the same number the attempt page shows and the raw total counts, with
earned and maximum points in one format (two decimals)."""

import re
from decimal import Decimal

import pytest

from quizzes.models import Attempt, QuizQuestion, QuizRule
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_numeric, question_single, quiz_with


@pytest.fixture
def attempt(db, student_a) -> Attempt:
    """Bank points are 1 everywhere; the quiz makes the picked question worth 2 and the rule's
    drawn question worth 3. The student gets the first right and the second wrong."""
    picked, drawn = question_single("rp-picked"), question_numeric("rp-drawn", answer="10")
    quiz = quiz_with([picked], slug="review-points")
    QuizQuestion.objects.filter(quiz=quiz, question=picked).update(points=Decimal("2"))
    QuizRule.objects.create(quiz=quiz, lecture=1, qtype="numeric", count=1, points=Decimal("3"))
    attempt = attempt_start(quiz=quiz, student=student_a)
    assert attempt.question_ids == [picked.pk, drawn.pk]
    for question, value in ((picked, "a"), (drawn, "99")):
        answer_save(
            attempt_id=attempt.pk,
            student=student_a,
            question_id=question.pk,
            data={"value": [value]},
        )
    return attempt_submit(attempt_id=attempt.pk)


def _points_shown(page: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", m).strip()
        for m in re.findall(r'<span class="fb-points">(.*?)</span>', page, re.S)
    ]


def test_review_shows_the_quizs_points_in_one_format(attempt, client_a) -> None:
    assert attempt.raw_score == Decimal("2") and attempt.raw_max == Decimal("5")
    page = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    assert _points_shown(page) == ["得分：2.00 / 2.00", "得分：0.00 / 3.00"]
    assert "2.00 / 5.00" in page  # the raw total: the sum of the maxima shown above


def test_staff_review_shows_the_same_points(attempt, client_ta) -> None:
    page = client_ta.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    assert _points_shown(page) == ["得分：2.00 / 2.00", "得分：0.00 / 3.00"]


def test_practice_feedback_shows_the_quizs_points(db, client_a) -> None:
    """The feedback fragment of an autosave (practice, points shown during the attempt)."""
    question = question_single("rp-practice")
    quiz = quiz_with(
        [question],
        slug="practice-points",
        kind="practice",
        review_correctness_during=True,
        review_points_during=True,
    )
    QuizQuestion.objects.filter(quiz=quiz, question=question).update(points=Decimal("2"))
    response = client_a.post(f"/quizzes/{quiz.slug}/start/")
    pk = int(response["Location"].rstrip("/").split("/")[-1])
    fragment = client_a.post(f"/quizzes/attempt/{pk}/answer/{question.pk}/", {"value": "b"})
    assert _points_shown(fragment.content.decode()) == ["得分：0.00 / 2.00"]
