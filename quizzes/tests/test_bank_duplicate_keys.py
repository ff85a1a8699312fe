"""A key written twice in one mapping of a bank file is the file's error, at its line: YAML kept the
last value without a word, so a TA who wrote `answer:` twice lost one of them silently. The import
says it like any bank error (file first) and still imports the other files."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.management import CommandError
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Question
from quizzes.tests.test_import_validation import ANCHORS, GOOD, _import, _write, bank  # noqa: F401

REPEAT = (
    "line {line}: the key '{key}' is written again (it is already on line {first}); write each "
)
REPEAT += "key once"


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def _line(path: Path, text: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``path`` that is ``text`` once stripped."""
    lines = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.strip() == text]
    return lines[nth - 1]


def _refused(path: Path) -> BankError:
    with pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    return refused.value


def test_an_answer_written_twice_is_said_with_its_lines(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("answer: false\n", "answer: false\n    answer: true\n"))
    first, again = _line(path, "answer: false"), _line(path, "answer: true")
    refused = _refused(path)
    said = REPEAT.format(line=again, key="answer", first=first)
    assert [e.message for e in refused.errors] == [said]
    assert str(refused) == f"lec.yaml: {said}"


def test_every_repeat_is_said_at_once_at_any_depth(tmp_path: Path) -> None:
    """The file's title, a choice's text in a flow mapping: each repeat is its own line."""
    text = GOOD.replace("{text: 乙, en: B}", "{text: 乙, en: B, text: 丙}")
    path = _write(tmp_path, text)
    path.write_text(path.read_text().replace("title: 测试\n", "title: 测试\ntitle: 两个\n"))
    choice = _line(path, "- {text: 乙, en: B, text: 丙}")
    assert [e.message for e in _refused(path).errors] == [
        REPEAT.format(line=3, key="title", first=2),
        REPEAT.format(line=choice, key="text", first=choice),
    ]


def test_a_key_written_twice_as_two_spellings_of_one_value_is_said(tmp_path: Path) -> None:
    """`yes:` and `true:` are one key to YAML: one of them would be lost the same way."""
    keys = "    tag: recall\n    yes: 1\n    true: 2\n"
    path = _write(tmp_path, GOOD.replace("    tag: recall\n", keys))
    first = _line(path, "yes: 1")
    assert [e.message for e in _refused(path).errors] == [
        REPEAT.format(line=first + 1, key="true", first=first)
    ]


def test_a_key_that_overrides_a_merged_default_is_no_repeat(tmp_path: Path) -> None:
    """YAML's merge key (`<<: *base`) then the key again changes the default: that is allowed."""
    path = tmp_path / "lec.yaml"
    path.write_text(
        "lecture: 1\ntitle: 测试\nbase: &base {section: sec-1-17, type: truefalse, tag: recall}\n"
        "questions:\n"
        "  - <<: *base\n    id: t-merged\n    tag: understand\n    stem: 判断\n    answer: true\n"
        "    explanation: 见 §1.17。\n",
        encoding="utf-8",
    )
    (question,) = load_bank_file(path, ANCHORS).questions
    assert (question.tag, question.answer) == ("understand", True)


def test_the_chinese_words_name_the_line_and_key(tmp_path: Path) -> None:
    path = _write(tmp_path, GOOD.replace("answer: false\n", "answer: false\n    answer: true\n"))
    first, again = _line(path, "answer: false"), _line(path, "answer: true")
    with translation.override("zh-hans"):
        said = str(_refused(path))
    assert said == f"lec.yaml：第 {again} 行：键“answer”重复（第 {first} 行已有），只能写一次"


@pytest.mark.django_db
def test_import_says_the_file_and_line_and_imports_the_other_files(bank: Path) -> None:  # noqa: F811
    bad = GOOD.replace("t-single", "b-single").replace("t-tf", "b-tf")
    path = _write(
        bank, bad.replace("answer: false\n", "answer: false\n    answer: true\n"), "b.yaml"
    )
    first, again = _line(path, "answer: false"), _line(path, "answer: true")
    with pytest.raises(CommandError) as refused:
        _import(bank)
    assert f"b.yaml: {REPEAT.format(line=again, key='answer', first=first)}" in str(refused.value)
    assert sorted(Question.objects.values_list("bank_id", flat=True)) == ["t-single", "t-tf"]
