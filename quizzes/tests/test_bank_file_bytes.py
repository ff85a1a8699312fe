"""A bank file that is not UTF-8, nests thousands deep, holds a NUL or lone surrogate (YAML's "\\0"
and "\\udcff" escapes), or names a lecture past the bound is the file's error: each stopped
import_quizzes with a traceback (UnicodeDecodeError, RecursionError, PostgreSQL's refusal)."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.utils import translation

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Question
from quizzes.tests.test_bank_said_not_crashed import import_refused
from quizzes.tests.test_import_validation import ANCHORS, GOOD, _write

UNSTORABLE = "The file holds a NUL character or a lone UTF-16 surrogate, which cannot be stored"
NOT_UTF8 = "The file is not UTF-8: save it as UTF-8 and import it again"


def _good(tmp_path: Path) -> bytes:
    return _write(tmp_path, GOOD).read_bytes()


CASES = {
    "gbk": (lambda good: good.decode().encode("gbk"), NOT_UTF8),
    "utf-16": (lambda good: good.decode().encode("utf-16"), NOT_UTF8),
    "nested": (
        lambda good: b"a: " + b"[" * 50_000 + b"]" * 50_000,
        "The YAML is nested too deeply",
    ),
    "lecture": (
        lambda good: good.replace(b"lecture: 1", b"lecture: 40000"),
        "'lecture' must be at most 99",
    ),
}


def _said(path: Path) -> str:
    with translation.override("en"), pytest.raises(BankError) as refused:
        load_bank_file(path, ANCHORS)
    return refused.value.message


@pytest.mark.parametrize("kind", sorted(CASES))
def test_the_files_bytes_are_said(tmp_path: Path, kind: str) -> None:
    change, said = CASES[kind]
    path = tmp_path / "lec.yaml"
    path.write_bytes(change(_good(tmp_path)))
    assert _said(path) == said


@pytest.mark.parametrize("escape", ['"\\0"', '"a\\udcffb"', '"\\ud800"'])
def test_a_nul_or_lone_surrogate_anywhere_is_said(tmp_path: Path, escape: str) -> None:
    path = _write(tmp_path, GOOD.replace("stem: 判断", f"stem: {escape}"))
    assert _said(path) == UNSTORABLE


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = tmp_path / "lec.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + _good(tmp_path))
    assert [q.id for q in load_bank_file(path, ANCHORS).questions] == ["t-single", "t-tf"]


@pytest.mark.django_db
def test_import_quizzes_says_it_and_stores_nothing(tmp_path: Path) -> None:
    with translation.override("en"):
        said = import_refused(tmp_path, GOOD.replace("stem: 判断", 'stem: "判\\0断"'))
    assert f"lec.yaml: {UNSTORABLE}" in said
    assert not Question.objects.exists()
