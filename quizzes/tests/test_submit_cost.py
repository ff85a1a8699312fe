"""A submit costs the same number of queries whatever the number of questions: the load peak of a
graded quiz is every student submitting at once (bench/quiz_load.py), so no per-question queries."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from quizzes.models import Answer, Attempt
from quizzes.tests.factories import question_multiple, question_numeric, question_single, quiz_with

pytestmark = pytest.mark.django_db


def _submit_queries(client, n_questions: int, slug: str) -> tuple[int, Attempt]:
    questions = []
    for i in range(n_questions):
        make = (question_single, question_multiple, question_numeric)[i % 3]
        questions.append(make(f"{slug}-{i}"))
    quiz = quiz_with(questions, slug=slug, grade_max_points=Decimal("10"))
    response = client.post(f"/quizzes/{quiz.slug}/start/")
    attempt = Attempt.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))
    values = {"single": "a", "multiple": ["a", "b"], "numeric": "10"}
    for q in questions:
        saved = client.post(
            f"/quizzes/attempt/{attempt.pk}/answer/{q.pk}/", {"value": values[q.qtype]}
        )
        assert saved["X-Quiz-Saved"] == "1"
    with CaptureQueriesContext(connection) as queries:
        assert client.post(f"/quizzes/attempt/{attempt.pk}/submit/").status_code == 302
    attempt.refresh_from_db()
    return len(queries.captured_queries), attempt


def test_submit_queries_do_not_grow_with_the_questions(client_a) -> None:
    small, _ = _submit_queries(client_a, 3, "small")
    large, attempt = _submit_queries(client_a, 24, "large")
    assert large == small, (small, large)
    # ...and every answer was graded and stored: all correct, full marks.
    answers = Answer.objects.filter(attempt=attempt)
    assert answers.count() == 24 and all(a.fraction == 1 for a in answers)
    assert attempt.score == Decimal("10")
