"""Real Chromium: the staff grid (students x items) scrolls sideways on a phone in its own box, not
the page (a long item title and its curve's badge included), and the student's name stays in view
beside every score; an excused cell says so in the page's language."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal
from typing import Any

import pytest
from django.conf import settings

from gradebook.services import excusal_set, grade_item_curve_set, grade_item_ensure, grade_record
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# The name cell's box against its scrolled wrapper's, and what the page shows at the cell's
# centre (an item's score scrolled over it would be the element there).
_NAME_AFTER_SCROLL_JS = """async () => {
  const wrap = document.querySelector('#grid').parentElement;
  const cell = document.querySelector('#grid tr[data-student="student_a"] td:nth-child(2)');
  const shadowAtStart = getComputedStyle(cell).boxShadow;
  wrap.scrollLeft = wrap.scrollWidth;
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const w = wrap.getBoundingClientRect(), c = cell.getBoundingClientRect();
  const hit = document.elementFromPoint(c.left + c.width / 2, c.top + c.height / 2);
  return {scrolls: wrap.scrollWidth > wrap.clientWidth, scrolled: wrap.scrollLeft,
          wrapLeft: w.left, left: c.left, right: c.right, wrapRight: w.right,
          onTop: cell.contains(hit), shadowAtStart, shadowScrolled: getComputedStyle(cell).boxShadow};
}"""


@contextmanager
def _grid_on_a_phone(browser, live_server, login, lang: str) -> Iterator[Any]:
    """The staff grid at 390 px in `lang`, the TA logged in; the context closes afterwards."""
    context = browser.new_context(viewport=PHONE)
    context.add_cookies(
        [{"name": settings.LANGUAGE_COOKIE_NAME, "value": lang, "url": live_server.url}]
    )
    page = context.new_page()
    try:
        login(page, "ta")
        page.goto(f"{live_server.url}/grades/staff/")
        yield page
    finally:
        context.close()


def _grid(student, ta) -> None:
    for n in range(1, 7):
        item = grade_item_ensure(key=f"lab:{n}", title=f"实验 {n}", kind="lab", max_points=10)
        if n == 6:
            excusal_set(student=student, item=item, actor=ta, excused=True, reason="病假")
        else:
            grade_record(student=student, item=item, points=Decimal(n), source="lab")


@pytest.mark.parametrize(("lang", "excused"), [("zh-hans", "免"), ("en", "EX")])
def test_the_name_stays_beside_the_scores_on_a_phone(
    live_server, _browser, login, student_a, ta, lang, excused
) -> None:
    _grid(student_a, ta)
    with _grid_on_a_phone(_browser, live_server, login, lang) as page:
        row = page.locator('#grid tr[data-student="student_a"]')
        assert row.locator("td.excused").inner_text().strip() == excused
        m = page.evaluate(_NAME_AFTER_SCROLL_JS)
        assert m["scrolls"] and m["scrolled"] > 0, m  # six items and the totals pass 390 px
        # Scrolled to the last column, the name is still inside the wrapper and nothing covers it.
        assert m["left"] >= m["wrapLeft"] - 1 and m["right"] <= m["wrapRight"], m
        assert m["onTop"], m
        # The scroll hint: no shadow beside the name until the grid is scrolled.
        assert m["shadowAtStart"] != m["shadowScrolled"], m


# [page scrollWidth, window width, the grid wrapper's scrollWidth and clientWidth]
_WIDTHS_JS = """() => { const wrap = document.querySelector('#grid').parentElement;
  return [document.documentElement.scrollWidth, window.innerWidth, wrap.scrollWidth, wrap.clientWidth]; }"""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_long_item_title_widens_the_grid_not_the_page(
    live_server, _browser, login, student_a, ta, lang
) -> None:
    """The item filter is a select as wide as its longest option: one long title made the page
    about 550 px wide at 390 px (English), so the whole page, not the grid, scrolled sideways."""
    item = grade_item_ensure(
        key="exam:mid", title="期中考试（笔试，闭卷，覆盖第 1–7 讲的全部内容与实验）",
        title_en="Midterm examination (written, closed book, covering lectures 1-7 and labs)",
        kind="exam", max_points=100,
    )  # fmt: skip
    grade_record(student=student_a, item=item, points=Decimal("87.5"), source="import")
    grade_item_curve_set(item=item, kind="scale", value="1.1", actor=ta, reason="偏难")
    with _grid_on_a_phone(_browser, live_server, login, lang) as page:
        page_width, window, grid_width, grid_box = page.evaluate(_WIDTHS_JS)
        assert page_width <= window, (page_width, window)
        assert grid_width > grid_box  # the grid scrolls in its own box instead
        # The title is still all there to read, in the filter and the grid's header.
        title = item.title if lang == "zh-hans" else item.title_en
        assert page.locator("#grid-filters select[name=item] option", has_text=title).count() == 1
        header = page.locator("#grid thead th", has_text=title)
        assert header.count() == 1
        # It wraps instead of making its column ~600 px wide (12rem at 16 px, and padding).
        assert header.bounding_box()["width"] <= 12 * 16 + 24, header.bounding_box()
        # Its curve's badge stays inside the header, beside the title it marks.
        badge = header.locator(".badge.curve").bounding_box()
        box = header.bounding_box()
        assert box["x"] <= badge["x"] and badge["x"] + badge["width"] <= box["x"] + box["width"]
