"""Stem snippets on the staff quiz editor and the item analysis page are plain text: no code
fences, backticks or emphasis markers of the bank's Markdown, cut to a short line."""

import re

import pytest
from django.utils.text import Truncator

from quizzes.models import Question
from quizzes.templatetags.quiz_tags import stem_snippet
from quizzes.tests.factories import question_single, quiz_with

FENCED = "下面的 kernel **有问题**吗？\n\n```cuda\n__global__ void k(float *x) { x[0] = 1; }\n```"
INLINE = "把 `other=-float('inf')` 改成了 `other=0.0` 会怎样？"


@pytest.fixture
def quiz(db):
    fenced, inline = question_single("sn-fenced"), question_single("sn-inline")
    Question.objects.filter(pk=fenced.pk).update(stem=FENCED)
    Question.objects.filter(pk=inline.pk).update(stem=INLINE)
    return quiz_with([fenced, inline], slug="snippets")


@pytest.mark.parametrize(
    ("stem", "snippet"),
    [
        (FENCED, "下面的 kernel 有问题吗？ __global__ void k(float *x) { x[0] = 1; }"),
        (INLINE, "把 other=-float('inf') 改成了 other=0.0 会怎样？"),
        ("用 *p* = {p} 个节点", "用 p = p 个节点"),  # emphasis and format fields
    ],
)
def test_snippet_is_plain_text(stem: str, snippet: str) -> None:
    assert stem_snippet(stem, 200) == snippet


def test_snippet_is_cut_after_the_markup_is_gone() -> None:
    # 60 characters of the text itself, ellipsis included (Django's, as truncatechars cuts)
    assert stem_snippet("`" + "a" * 100 + "`") == Truncator("a" * 100).chars(60)


def _cells(page: str, bank_id: str) -> str:
    row = re.search(rf'<tr data-bank-id="{bank_id}">(.*?)</tr>', page, re.S)
    assert row, bank_id
    return row.group(1)


@pytest.mark.parametrize("url", ["/quizzes/staff/snippets/", "/quizzes/snippets/analysis/"])
def test_staff_pages_show_plain_snippets(quiz, client_ta, url: str) -> None:
    page = client_ta.get(url).content.decode()
    fenced, inline = _cells(page, "sn-fenced"), _cells(page, "sn-inline")
    for cells in (fenced, inline):
        assert "`" not in cells and "**" not in cells
    assert "下面的 kernel 有问题吗？ __global__ void" in fenced
    assert "把 other=-float(&#x27;inf&#x27;) 改成了 other=0.0" in inline


@pytest.mark.parametrize("url", ["/quizzes/staff/snippets/", "/quizzes/snippets/analysis/"])
def test_english_pages_show_the_english_stem_when_written(quiz, client_ta, url: str) -> None:
    """The review already said English stems on English pages; these staff tables said Chinese."""
    from django.conf import settings

    Question.objects.filter(bank_id="sn-inline").update(stem_en="What if `other=0.0` is used?")
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_ta.get(url).content.decode()
    inline, fenced = _cells(page, "sn-inline"), _cells(page, "sn-fenced")
    assert 'lang="en">What if other=0.0 is used?' in inline
    assert "下面的 kernel" in fenced  # no English written: the Chinese one
