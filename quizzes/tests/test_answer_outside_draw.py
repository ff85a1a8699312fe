"""An attempt takes answers only to the questions drawn for it (services._save_locked: "该题不在
本次作答中"). Were any question id taken, a practice quiz that gives feedback at once would mark
any question of the bank, those of a graded quiz not yet taken included, and say its right
answer: a student could collect the answers of the exam from the practice page.
"""

from __future__ import annotations

import pytest

from quizzes.models import Answer, Attempt, Quiz
from quizzes.tests.factories import question_single, quiz_with


@pytest.mark.django_db
def test_a_question_outside_the_draw_is_neither_saved_nor_marked(client_a) -> None:
    secret = question_single("exam-1", correct="c")
    quiz_with([secret], slug="exam", title="期末测验")
    practice = quiz_with(
        [question_single("warm-1", correct="b")],
        kind=Quiz.Kind.PRACTICE,
        slug="warm-up",
        review_correctness_during=True,
        review_right_answer_during=True,
        review_explanation_during=True,
    )
    assert client_a.post(f"/quizzes/{practice.slug}/start/").status_code == 302
    attempt = Attempt.objects.get(quiz=practice)
    assert secret.pk not in attempt.question_ids

    answer = client_a.post(f"/quizzes/attempt/{attempt.pk}/answer/{secret.pk}/", {"value": "a"})

    body = answer.content.decode()
    assert answer.status_code == 200 and answer["X-Quiz-Saved"] == "0"
    assert "该题不在本次作答中" in body
    assert "正确答案" not in body and "choice c" not in body
    assert not Answer.objects.filter(attempt=attempt, question=secret).exists()
