"""On a phone, the home page's "recent grades" keep each date on one line: "12-07" broke after its
hyphen, "12-" at the end of one line and "07" on the next, whenever a title put it at the edge.
Real Chromium at 390 px; the title is lengthened a letter at a time so that the date meets the
line's end whatever the fonts."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from conftest import browser_login
from gradebook.services import grade_item_ensure, grade_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# For each length of the title from its own up to 40 letters more: how many line boxes the date
# takes (1 when it moves to the next line whole).
SPLITS = """() => {
  const li = document.querySelector('.dash-grades li');
  const date = li.querySelector('.meta');
  const words = li.firstChild;  // the title's text
  const seen = [];
  for (let i = 0; i < 40; i++) {
    words.textContent = words.textContent + 'x';
    const range = document.createRange();
    range.selectNodeContents(date);
    seen.push([...range.getClientRects()].filter(r => r.width > 0).length);
  }
  return seen;
}"""


def test_recent_grades_keep_each_date_on_one_line(live_server, _browser) -> None:
    student = user_create_with_role(username="stu_home", password="pw-test-12345", role="student")
    item = grade_item_ensure(
        key="exam:mid", title="期中考试", kind="exam", max_points=Decimal(10), category="exam"
    )
    item.released = True
    item.save(update_fields=["released"])
    grade_record(student=student, item=item, points="2.22", source="import")
    context = _browser.new_context(viewport={"width": 390, "height": 800})
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        browser_login(page, live_server, "stu_home", "pw-test-12345")
        page.wait_for_selector(".dash-grades li .meta")
        lines = page.evaluate(SPLITS)
        assert max(lines) == 1, lines
    finally:
        context.close()
