"""In real Chromium: §, · and the other marks the CJK fonts draw one em wide are narrow in English
text, and § is narrow in Chinese text too, while the rest of the Chinese punctuation keeps its
full width.

Before, the page font stack began with Noto Sans CJK SC for every language, so an explanation
ending "(§1.17)" read "( § 1.17)" and the staff links' "·" separators stood in wide gaps.
"""

from __future__ import annotations

import pytest

from conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The width of each occurrence of `ch` in the page's text, in em of its element's font size,
# with the lang of the nearest element that declares one.
WIDTHS_JS = """(ch) => {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const out = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    for (let i = node.data.indexOf(ch); i >= 0; i = node.data.indexOf(ch, i + 1)) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const size = parseFloat(getComputedStyle(node.parentElement).fontSize);
      out.push({em: range.getBoundingClientRect().width / size,
                lang: node.parentElement.closest('[lang]').lang});
    }
  }
  return out;
}"""

NARROW_EM = 0.7  # a Latin §/· is 0.3–0.6 em wide; the CJK fonts' forms are 1.0 em
PAGE = "/quizzes/staff/bank/new/"  # its help text names "§5.3"; its links are "·"-separated


def _widths(browser, live_server, user: str, lang: str) -> dict[str, list[dict]]:
    context = browser.new_context()
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    browser_login(page, live_server, user)
    assert page.goto(live_server.url + PAGE).status == 200
    found = {ch: page.evaluate(WIDTHS_JS, ch) for ch in "§·"}
    context.close()
    assert found["§"] and found["·"], found  # the page still shows both marks
    return found


def test_english_text_takes_its_marks_from_a_latin_font(live_server, _browser, instructor):
    found = _widths(_browser, live_server, instructor.username, "en")
    wide = [(ch, w) for ch, ws in found.items() for w in ws if w["em"] >= NARROW_EM]
    assert not wide, wide
    assert {w["lang"] for ws in found.values() for w in ws} == {"en"}


def test_chinese_text_narrows_only_the_section_sign(live_server, _browser, instructor):
    found = _widths(_browser, live_server, instructor.username, "zh-hans")
    assert all(w["em"] < NARROW_EM for w in found["§"]), found["§"]
    # "·" between Chinese link texts is Chinese punctuation: one em, as the CJK font draws it.
    assert all(w["em"] > 0.95 for w in found["·"]), found["·"]
