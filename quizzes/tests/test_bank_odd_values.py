"""A value no number or key could be is the question's problem, never a server error: an answer
whose exponent is past the decimal module's bounds raised decimal.Overflow (a 500 on the staff
form, a traceback from import_quizzes), and a type written as a list raised TypeError."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Question
from quizzes.tests.test_authoring_english import _field_errors
from quizzes.tests.test_bank_number_bounds import NUMERIC
from quizzes.tests.test_import_validation import ANCHORS, GOOD, _question, _write
from quizzes.tests.test_question_errors_at_once import NEW

TOO_BIG = "Numeric answer must be less than 1000000000000 in absolute value"


@pytest.mark.django_db
@pytest.mark.parametrize("answer", ["1e99999999999999", "-1E999999999999999999"])
def test_an_answer_past_the_decimal_bounds_is_said_at_the_field(client_ta, answer) -> None:
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client_ta.post(NEW, NUMERIC | {"answer": answer})
    assert response.status_code == 400
    assert _field_errors(response.content.decode(), "answer") == [TOO_BIG]
    assert response.context["form"]["answer"].value() == answer  # what was typed is kept
    assert not Question.objects.exists()


def _said(path: Path) -> list[str]:
    with translation.override("en"), pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    return [e.message for e in refused.value.errors]


def test_a_bank_files_answer_past_the_decimal_bounds_is_said(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD + _question("numeric", {"answer": "1e99999999999999"}))
    assert _said(path) == [TOO_BIG]


def test_a_type_written_as_a_list_is_said(tmp_path: Path) -> None:
    said = _said(_write(tmp_path, GOOD + _question("single", {"type": ["single"]})))
    assert said[0] == "'type' must be one of single, multiple, truefalse, numeric, param"
