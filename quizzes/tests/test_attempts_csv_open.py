"""The attempts CSV leaves an attempt still in progress ungraded: its question cells were "0"
(unanswered: 0 points) beside an empty raw_score, so a staff member read a student mid-quiz as
having scored nothing on every question, even one already answered right. They are empty now,
as its scores are; a submitted attempt keeps its 0 for a question left unanswered."""

from __future__ import annotations

import csv
import io

import pytest

from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def _rows(client) -> list[dict[str, str]]:
    text = client.get("/quizzes/csv-open/attempts.csv").content.decode("utf-8-sig")
    return list(csv.DictReader(io.StringIO(text)))


def test_an_attempt_in_progress_has_no_question_points(client_ta, student_a, student_b) -> None:
    right, skipped = question_single("open-right"), question_single("open-skipped")
    quiz = quiz_with([right, skipped], slug="csv-open")
    for student in (student_a, student_b):
        attempt = attempt_start(quiz=quiz, student=student)
        answer_save(
            attempt_id=attempt.pk, student=student, question_id=right.pk, data={"value": ["a"]}
        )
        if student == student_b:
            attempt_submit(attempt_id=attempt.pk)
    by_user = {row["username"]: row for row in _rows(client_ta)}
    cells = ("raw_score", "score", "open-right", "open-skipped")
    assert {name: by_user["student_a"][name] for name in cells} == dict.fromkeys(cells, "")
    submitted = {name: by_user["student_b"][name] for name in cells[2:]}
    assert submitted == {"open-right": "1", "open-skipped": "0"}, submitted
