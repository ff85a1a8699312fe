"""The structure checks of the site crawl (tests/crawl.py) on small pages: what they flag and
what they let pass, so that a green crawl means the pages were looked at."""

from __future__ import annotations

import pytest

from tests import crawl


def _problems(body: str, h1: str = "<h1>标题</h1>") -> list[str]:
    page = crawl.parse(f'<html lang="zh-CN"><body>{h1}{body}</body></html>')
    return crawl.problems(page, data_words=set())


@pytest.mark.parametrize(
    "body",
    [
        '<label for="q">讲次</label><input id="q" name="q">',
        '<label>讲次 <select name="l"><option>1</option></select></label>',
        '<textarea name="t" aria-label="代码"></textarea>',
        '<input type="hidden" name="csrfmiddlewaretoken"><input type="submit" value="提交">',
    ],
)
def test_a_named_field_passes(body: str) -> None:
    assert _problems(body) == []


@pytest.mark.parametrize(
    ("body", "h1", "problem"),
    [
        ('<input id="q" name="q">', "<h1>标题</h1>", "form field without a label: 'q'"),
        ('<label for="x">讲次</label><input id="q" name="q">', "<h1>标题</h1>", "'q'"),
        ("<p>正文</p>", "", "0 h1 headings"),
        ("<h1>又一个</h1>", "<h1>标题</h1>", "2 h1 headings"),
        ('<p id="a">一</p><p id="a">二</p>', "<h1>标题</h1>", "repeated id: 'a'"),
    ],
)
def test_a_structure_problem_is_flagged(body: str, h1: str, problem: str) -> None:
    assert any(problem in p for p in _problems(body, h1)), _problems(body, h1)


def test_the_admin_is_left_to_django() -> None:
    page = crawl.parse('<html lang="zh-CN"><body><input id="q" name="q"></body></html>')
    assert crawl.problems(page, data_words=set(), structure=False) == []
