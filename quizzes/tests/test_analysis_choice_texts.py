"""The item analysis names each choice by its text, in the page's language, with its count, and
marks the right ones: students each saw their own shuffle of the choices, so a letter in bank
order ("C: 1") named no choice a student saw."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from accounts.services import user_create_with_role
from quizzes.models import Choice
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

TEXTS = {"a": ("共享内存", "shared memory"), "b": ("全局内存", "global memory"),
         "c": ("寄存器", "registers"), "d": ("常量内存", "constant memory")}  # fmt: skip
PICKS = ["a", "a", "c"]  # two students right, one picked c


@pytest.fixture
def quiz(db):
    question = question_single("ct-1", correct="a")
    for key, (zh, en) in TEXTS.items():
        Choice.objects.filter(question=question, key=key).update(text=zh, text_en=en)
    quiz = quiz_with([question], slug="choice-texts", shuffle_choices=True)
    for i, key in enumerate(PICKS):
        student = user_create_with_role(username=f"ct{i}", password="pw-test-12345", role="student")
        attempt = attempt_start(quiz=quiz, student=student)
        answer_save(
            attempt_id=attempt.pk, student=student, question_id=question.pk, data={"value": [key]}
        )
        attempt_submit(attempt_id=attempt.pk)
    return quiz


def _choices(page: str) -> list[tuple[str, str, bool]]:
    """(text, count, marked right) of each choice line of the page."""
    lines = re.findall(r'<li data-key="\w+"( class="correct-choice")?>(.*?)</li>', page, re.S)
    found = []
    for right, line in lines:
        text = re.search(r'<span lang="[\w-]+">(.*?)</span>', line)[1]
        count = re.search(r'<span class="dist-count">(\d+)</span>', line)[1]
        found.append((text, count, bool(right) and "✓" in line))
    return found


def test_analysis_shows_choice_texts_with_counts_and_the_right_one(quiz, client_ta) -> None:
    page = client_ta.get("/quizzes/choice-texts/analysis/").content.decode()
    assert _choices(page) == [
        ("共享内存", "2", True),
        ("全局内存", "0", False),
        ("寄存器", "1", False),
        ("常量内存", "0", False),
    ]


def test_english_pages_show_the_english_choice_texts(quiz, client_ta) -> None:
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_ta.get("/quizzes/choice-texts/analysis/").content.decode()
    assert [(text, count) for text, count, _right in _choices(page)] == [
        ("shared memory", "2"),
        ("global memory", "0"),
        ("registers", "1"),
        ("constant memory", "0"),
    ]
    assert "Right answer" in page
