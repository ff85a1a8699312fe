"""In real Chromium at 390x844: the lecture search box's placeholder is read whole. The English one,
"Search the lectures, e.g. bank conflict", was cut to "… e.g. bank cor" (a new-user walk); the
label already says what the box is for, so the placeholder gives the examples only."""

from __future__ import annotations

import pytest

from conftest import browser_login
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The placeholder's text width against the box's content width, in CSS px, with the box's font.
MEASURE = """() => {
  const box = document.querySelector('#lecture-search-q');
  const style = getComputedStyle(box);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const inner = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  return [ctx.measureText(box.placeholder).width, inner, box.placeholder];
}"""


@pytest.mark.parametrize("lang", ["en", "zh-hans"])
def test_the_search_placeholder_fits_a_phone(_browser, live_server, student_a, lang) -> None:
    context = _browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    try:
        page = context.new_page()
        browser_login(page, live_server, student_a.username)
        assert page.goto(f"{live_server.url}/lectures/").status == 200
        page.wait_for_selector("#lecture-search-q")
        text_px, box_px, placeholder = page.evaluate(MEASURE)
        assert placeholder and text_px <= box_px, (text_px, box_px, placeholder)
    finally:
        context.close()
