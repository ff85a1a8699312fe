"""On the staff desk, the open flags' count beside its link ("待处理的标记 2") is a badge like the
panels' counts, not plain text: the badge style was written for `.desk .count` only, and this
count sits in the links above the panels."""

from __future__ import annotations

import pytest

from conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOOK = (
    "e => { const s = getComputedStyle(e); return [s.borderRadius, s.backgroundColor, s.display]; }"
)


def test_the_open_flags_count_is_a_badge(browser_page, live_server, ta) -> None:
    page = browser_page
    browser_login(page, live_server, "ta")
    page.goto(f"{live_server.url}/staff/")
    panel = page.eval_on_selector("#panel-flagged h2 .count", LOOK)
    assert page.eval_on_selector("#open-flags", LOOK) == panel
    assert panel[0] != "0px"
