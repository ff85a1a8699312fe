"""The structure checks of the site crawl (tests/crawl.py) on small pages: what they flag and
what they let pass, so that a green crawl means the pages were looked at."""

from __future__ import annotations

import pytest

from tests import crawl

H1 = "<h1>标题</h1>"
# (the page's body after its h1, the h1 markup, what the checks say: "" for nothing)
PAGES = [
    ('<label for="q">讲次</label><input id="q" name="q">', H1, ""),
    ('<label>讲次 <select name="l"><option>1</option></select></label>', H1, ""),
    ('<textarea name="t" aria-label="代码"></textarea>', H1, ""),
    ('<input type="hidden" name="c"><input type="submit" value="提交">', H1, ""),
    ('<input id="q" name="q">', H1, "form field without a label: 'q'"),
    ('<label for="x">讲次</label><input id="q" name="q">', H1, "form field without a label: 'q'"),
    ("<p>正文</p>", "", "0 h1 headings (a page has one)"),
    ("<h1>又一个</h1>", H1, "2 h1 headings (a page has one)"),
    ('<p id="a">一</p><p id="a">二</p>', H1, "repeated id: 'a'"),
]


@pytest.mark.parametrize(("body", "h1", "said"), PAGES)
def test_what_the_structure_checks_say(body: str, h1: str, said: str) -> None:
    page = crawl.parse(f'<html lang="zh-CN"><body>{h1}{body}</body></html>')
    assert crawl.problems(page, data_words=set()) == ([said] if said else [])
    assert crawl.problems(page, data_words=set(), structure=False) == (
        [said] if said.startswith("repeated") else []  # the admin: ids only, its markup is Django's
    )
