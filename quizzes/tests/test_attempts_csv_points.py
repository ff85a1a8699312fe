"""The attempts CSV writes every score in one format, the pages' (`pts`): an unanswered question
read "0" and a wrong answer "0.000" beside it, a right one "1.000"."""

from __future__ import annotations

import csv
import io

import pytest

from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def test_score_cells_share_one_format(client_ta, student_a) -> None:
    right, wrong, skipped = (
        question_single("csv-right", points="2.5"),
        question_single("csv-wrong"),
        question_single("csv-skipped"),
    )
    quiz = quiz_with([right, wrong, skipped], slug="csv-points")
    attempt = attempt_start(quiz=quiz, student=student_a)
    for question, key in ((right, "a"), (wrong, "b")):
        answer_save(
            attempt_id=attempt.pk, student=student_a, question_id=question.pk, data={"value": [key]}
        )
    attempt_submit(attempt_id=attempt.pk)
    text = client_ta.get("/quizzes/csv-points/attempts.csv").content.decode("utf-8-sig")
    [row] = csv.DictReader(io.StringIO(text))
    scores = ("raw_score", "raw_max", "csv-right", "csv-wrong", "csv-skipped")
    assert {name: row[name] for name in scores} == {
        "raw_score": "2.5",
        "raw_max": "4.5",
        "csv-right": "2.5",
        "csv-wrong": "0",
        "csv-skipped": "0",
    }
