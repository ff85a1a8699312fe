"""A student's list of their attempts shows "—" in the score cell of the attempt still open, as its
submitted-at cell does, not an empty cell (a new-user walk read it as a missing score)."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from quizzes.services import attempt_start
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def test_an_open_attempt_scores_a_dash(client_a, student_a) -> None:
    quiz = quiz_with([question_single("open-cell")])
    attempt_start(quiz=quiz, student=student_a)
    page = client_a.get(reverse("quizzes:detail", args=[quiz.slug])).content.decode()
    table = re.search(r'<table class="stack-on-phone" id="my-attempts">(.*?)</table>', page, re.S)
    assert table, "no list of attempts"
    cells = re.findall(r'<td data-label="得分">(.*?)</td>', table[1], re.S)
    assert cells == ["—"]
