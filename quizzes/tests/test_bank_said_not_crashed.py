"""What YAML or str.format make of a bank file's text is said as the question's problem: it
stopped import_quizzes with a traceback (TypeError, ValueError) instead of naming the question."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.tests.test_import_validation import ANCHORS, GOOD, _question, _write

NOT_TEXT = "keys that are not text: {keys} (YAML reads an unquoted yes, no, on or off as true or "
NOT_TEXT += "false, and digits as a number)"


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _said(path: Path) -> list[str]:
    with pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    return [e.message for e in refused.value.errors]


def test_a_key_yaml_reads_as_true_is_said(tmp_path: Path) -> None:
    """`yes:` is the key True and `12:` the key 12: joining or sorting them with text failed."""
    question = _question("single", {True: 1}).replace("    true: 1\n", "    yes: 1\n")
    assert "    yes: 1\n" in question
    assert _said(_write(tmp_path, GOOD + question)) == [NOT_TEXT.format(keys="True")]
    question = _question("single", {True: 1, 12: 1, "colour": "red"})
    assert _said(_write(tmp_path, GOOD + question)) == [
        NOT_TEXT.format(keys="True, 12"),
        "unknown keys for single: colour",
    ]


def import_refused(tmp_path: Path, questions: str) -> str:
    """What import_quizzes says of a folder holding one bank file of ``questions``."""
    (tmp_path / "notes.txt").write_text("1.17 两条定律\n", encoding="utf-8")
    folder = tmp_path / "bank"
    folder.mkdir()
    _write(folder, questions)
    with pytest.raises(CommandError) as refused:
        call_command("import_quizzes", str(folder), notes=tmp_path / "notes.txt")
    return str(refused.value)


@pytest.mark.django_db
def test_import_quizzes_names_the_question_of_a_yes_key(tmp_path: Path) -> None:
    said = import_refused(
        tmp_path, GOOD.replace("    tag: recall\n", "    tag: recall\n    on: true\n")
    )
    assert f"lec.yaml: question t-tf: {NOT_TEXT.format(keys='True')}" in said


BRACE = "'{key}' has a {{ or }} that is not part of a placeholder; to show a brace itself, write "
BRACE += "{{{{ or }}}}"


@pytest.mark.parametrize(
    ("changes", "said"),
    [
        ({"stem": "p = {p, n = {n}"}, [BRACE.format(key="stem")]),
        ({"stem_en": "p = {p}, n = {n}}"}, [BRACE.format(key="stem_en")]),
        ({"stem": "{", "stem_en": "}"}, [BRACE.format(key="stem"), BRACE.format(key="stem_en")]),
    ],
)
def test_a_lone_brace_in_a_param_stem_is_said_at_the_stem(
    tmp_path: Path, changes: dict, said: list[str]
) -> None:
    """str.format reads the stem of a generated question; a lone { raised ValueError there."""
    path = _write(tmp_path, GOOD + _question("param", changes))
    assert _said(path) == said
    with pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    assert {e.key for e in refused.value.errors} == {"stem", "stem_en"} & set(changes)


def test_a_brace_written_twice_is_a_brace(tmp_path: Path) -> None:
    changes = {"stem": "{{p}} = {p}, n = {n}", "stem_en": "{{p}} = {p}, n = {n}"}
    bank = load_bank_file(_write(tmp_path, GOOD + _question("param", changes)), ANCHORS)
    assert bank.questions[-1].stem == "{{p}} = {p}, n = {n}"


@pytest.mark.parametrize("placeholder", ["{p!z}", "{p:zz}", "{p:q}"])
def test_a_placeholder_the_values_cannot_fill_is_said_at_the_stem(
    tmp_path: Path, placeholder: str
) -> None:
    """A conversion or format spec that str.format refuses got past the bank checks and raised
    ValueError when the quiz page filled the stem: a 500 for every student given the question."""
    path = _write(tmp_path, GOOD + _question("param", {"stem": f"p = {placeholder}, n = {{n}}"}))
    said = _said(path)
    assert len(said) == 1 and said[0].startswith("'stem' has a placeholder the generated values")


def test_a_lecture_yaml_reads_as_true_is_refused(tmp_path: Path) -> None:
    """`lecture: yes` is True, which Python counts as the int 1: it was taken for lecture 1."""
    path = _write(tmp_path, GOOD)
    path.write_text(path.read_text(encoding="utf-8").replace("lecture: 1", "lecture: yes"))
    with pytest.raises(BankError, match="lecture"):
        load_bank_file(path, ANCHORS)
