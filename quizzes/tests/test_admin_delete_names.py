"""Deleting a quiz in the admin lists every row that goes with it, each named by its model.

Answers, pool entries and choices had no names of their own, so the Chinese confirmation page read
"answer: 3/17" and "quiz question: 2/5" (Django's English default)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from quizzes.services import answer_save, attempt_start
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db

ENGLISH_DEFAULTS = ("answer", "quiz question", "choice", "attempt")


@pytest.fixture
def quiz_page(admin_client, student_a):
    question = question_single("q-del")
    quiz = quiz_with([question])
    attempt = attempt_start(quiz=quiz, student=student_a)
    answer_save(
        attempt_id=attempt.pk, student=student_a, question_id=question.pk, data={"value": ["a"]}
    )

    def page(language: str) -> str:
        admin_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
        response = admin_client.get(f"/admin/quizzes/quiz/{quiz.pk}/delete/")
        assert response.status_code == 200
        return response.content.decode()

    return page


def _listed_kinds(page: str) -> set[str]:
    """The model names before the colon of each row in the list of objects to delete."""
    return {m.strip() for m in re.findall(r"<li>\s*([^<:：]+)[:：]", page)}


def test_chinese_delete_page_names_rows_in_chinese(quiz_page) -> None:
    kinds = _listed_kinds(quiz_page("zh-hans"))
    assert {"测验", "选入的题目", "作答", "答案"} <= kinds, kinds
    assert not {k.lower() for k in kinds} & set(ENGLISH_DEFAULTS), kinds


def test_english_delete_page_names_rows_in_english(quiz_page) -> None:
    kinds = _listed_kinds(quiz_page("en"))
    assert {"Quiz", "Answer", "Attempt"} <= kinds, kinds
    assert not any(re.search(r"[\u4e00-\u9fff]", k) for k in kinds), kinds
