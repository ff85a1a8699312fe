"""The attempts file is opened in a spreadsheet by staff: a student's name that starts like a
formula is sent as text (pdcsite.csvcells), as in the gradebook's exports (gradebook test_csv)."""

from __future__ import annotations

import csv
import io

import pytest

from quizzes.services import attempt_start
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("name", ['=HYPERLINK("http://x")', "+1", "-2+3", "@SUM(A1)", " =1"])
def test_a_formula_looking_name_is_text(client_ta, student_a, name: str) -> None:
    student_a.first_name, student_a.last_name = name, ""
    student_a.save()
    quiz = quiz_with([question_single("formula-q")], slug="formula-quiz")
    attempt_start(quiz=quiz, student=student_a)
    body = client_ta.get(f"/quizzes/{quiz.slug}/attempts.csv").content.decode("utf-8-sig")
    (row,) = list(csv.DictReader(io.StringIO(body)))
    assert row["name"] == "'" + student_a.get_full_name() and row["username"] == student_a.username
