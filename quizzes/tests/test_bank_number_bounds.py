"""A question's numbers fit the columns that store them, or are refused with a word.

The answer and the absolute tolerance are numeric(20, 8), the relative tolerance numeric(10, 8),
the points numeric(6, 2). An answer of 1e30 typed on the staff form was a server error
(PostgreSQL's "numeric field overflow"); 1e-9 was stored as 0 without a word. The bank's parser
checks each number against its column, so a bank file and the staff form say the same."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Question
from quizzes.tests.test_authoring_english import _field_errors
from quizzes.tests.test_import_validation import ANCHORS, GOOD, _question, _write
from quizzes.tests.test_question_errors_at_once import NEW, QUESTION

NUMERIC = QUESTION | {"qtype": "numeric", "choices": "", "abs_tol": "0.1", "bank_id": "l5-num"}


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ("1e30", "数值答案的绝对值必须小于 1000000000000"),
        ("-1e12", "数值答案的绝对值必须小于 1000000000000"),
        ("1e-9", "数值答案最多精确到 0.00000001"),
    ],
)
def test_an_answer_its_column_cannot_hold_is_said_at_the_field(client_ta, answer, said) -> None:
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hans"
    response = client_ta.post(NEW, NUMERIC | {"answer": answer})
    assert response.status_code == 400
    assert _field_errors(response.content.decode(), "answer") == [said]
    assert not Question.objects.exists()


@pytest.mark.django_db
def test_the_largest_and_finest_answer_the_column_holds_is_stored(client_ta) -> None:
    assert client_ta.post(NEW, NUMERIC | {"answer": "999999999999.99999999"}).status_code == 302
    assert client_ta.post(NEW, NUMERIC | {"bank_id": "l5-f", "answer": "1e-8"}).status_code == 302
    stored = dict(Question.objects.values_list("bank_id", "answer_number"))
    assert {k: str(v) for k, v in stored.items()} == {
        "l5-num": "999999999999.99999999",
        "l5-f": "1E-8",
    }


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"answer": "1e30"}, "Numeric answer must be less than 1000000000000 in absolute value"),
        ({"answer": 1e-9}, "Numeric answer can be stored to 0.00000001 at the finest"),
        (
            {"tolerance": {"abs": "1e13"}},
            "Absolute tolerance must be less than 1000000000000 in absolute value",
        ),
        (
            {"tolerance": {"rel": 100}},
            "Relative tolerance must be less than 100 in absolute value",
        ),
        ({"points": 0.001}, "Points can be stored to 0.01 at the finest"),
        ({"points": 10000}, "Points must be less than 10000 in absolute value"),
    ],
)
def test_a_bank_files_number_its_column_cannot_hold_is_refused(
    tmp_path: Path, changes: dict, said: str
) -> None:
    path = _write(tmp_path, GOOD + _question("numeric", changes))
    with translation.override("en"), pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    assert [str(e) for e in refused.value.errors] == [f"lec.yaml: question bad-q: {said}"]
