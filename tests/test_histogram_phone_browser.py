"""The score distribution chart on a staff item page reads on a phone: at 390 px the SVG (drawn
576 units wide) shows at about half size, so its tick labels were about 5 px tall and the chart
kept 240 px of height around a 120 px picture. The labels are drawn larger on narrow screens
(gradebook.css), the chart keeps its aspect ratio, and no label leaves the chart."""

from __future__ import annotations

from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from conftest import browser_login
from gradebook.services import grade_item_ensure, grade_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PW = "pw-test-12345"
MIN_LABEL_PX = 9  # rendered height of a tick label, CSS px: the smallest we call readable

LABELS_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height}; };
  const vb = document.querySelector('svg.histogram').viewBox.baseVal;
  return { svg: box(document.querySelector('svg.histogram')), drawn: vb.height / vb.width,
           ticks: [...document.querySelectorAll('svg.histogram .tick')].map(box),
           counts: [...document.querySelectorAll('svg.histogram .count')]
                     .filter(t => t.textContent).map(box) };
}"""


def test_histogram_labels_read_and_fit_at_phone_and_desktop(live_server, _browser) -> None:
    user_create_with_role(username="ta_h", password=PW, role="ta")
    item = grade_item_ensure(key="lab:7", title="直方图", kind="lab", max_points=Decimal(10))
    for i, points in enumerate((10, 10, 9, 5, 0)):
        student = user_create_with_role(username=f"stu_h{i}", password=PW, role="student")
        grade_record(student=student, item=item, points=Decimal(points), source="lab")
    context = _browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    browser_login(page, live_server, "ta_h", PW)
    for width in (390, 1280):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto(f"{live_server.url}/grades/staff/items/{item.pk}/")
        found = page.evaluate(LABELS_JS)
        svg, ticks, counts = found["svg"], found["ticks"], found["counts"]
        assert len(ticks) == 11 and len(counts) == 3, found
        assert svg["right"] <= width, (width, svg)  # no sideways scroll
        shown = svg["height"] / (svg["right"] - svg["left"])
        assert shown == pytest.approx(found["drawn"], abs=0.01), (width, svg)  # no blank band
        for label in ticks + counts:
            assert label["height"] >= MIN_LABEL_PX, (width, label)
            assert svg["left"] <= label["left"] and label["right"] <= svg["right"] + 0.5, (
                width,
                label,
            )
            assert svg["top"] <= label["top"] and label["bottom"] <= svg["bottom"] + 0.5, (
                width,
                label,
            )
        for left, right in zip(ticks, ticks[1:], strict=False):
            assert left["right"] < right["left"], (width, left, right)  # labels do not touch
    context.close()
