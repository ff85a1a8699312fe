"""The quiz page in English reads as English: the attempts left come after their number
("Attempts: 3 (1 left)", not "(left 1)", a word-by-word copy of "（剩余 1）"), and an open attempt's
status is a label like its neighbour's ("In progress" beside "Submitted", not "in progress")."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from quizzes.services import attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]*>", " ", html))


@pytest.mark.parametrize(
    ("lang", "attempts", "states"),
    [
        ("en", "Attempts: 3 (1 left)", ("Submitted", "In progress")),
        ("zh-hans", "作答次数：3（剩余 1）", ("已提交", "作答中")),
    ],
)
def test_attempts_left_and_states_read_in_the_pages_language(
    student_a, client_a, lang, attempts, states
) -> None:
    quiz = quiz_with([question_single("en-words")], max_attempts=3)
    attempt_submit(attempt_id=attempt_start(quiz=quiz, student=student_a).pk)
    attempt_start(quiz=quiz, student=student_a)
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    text = _text(client_a.get(f"/quizzes/{quiz.slug}/").content.decode())
    assert attempts in text
    for state in states:
        assert re.search(rf"(?<!\w){state}(?!\w)", text), state
