"""Must-hold 5: a student reads lecture 3 in real Chromium: TOC jump to 3.4, mark it read (the
progress bar moves, via htmx), search "bank conflict" and land on 3.4."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings

CONTENT = Path(settings.BASE_DIR) / "content"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_student_reads_marks_and_searches(browser_page, live_server, login, student_a) -> None:
    from lectures.services import content_import

    report = content_import(lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course")
    assert not report.errors
    page = browser_page
    login(page, "student_a")

    page.goto(f"{live_server.url}/lectures/3/")
    page.locator("nav.toc").get_by_role("link", name="3.4", exact=False).first.click()
    page.wait_for_url("**/lectures/3/#sec-3-4")
    heading = page.locator("#sec-3-4 h2")
    assert "避免 bank conflict" in heading.inner_text()
    assert heading.is_visible() and heading.bounding_box()["y"] < 300  # scrolled to the top

    bar = page.locator("#lecture-progress-3 [role=progressbar]")
    assert bar.get_attribute("data-read") == "0"
    width_before = page.locator("#lecture-progress-3 .progress-bar").bounding_box()["width"]
    page.locator("#sec-3-4 button.read-button").click()
    page.wait_for_selector("#sec-3-4 button.read-button[aria-pressed=true]")
    page.wait_for_function(
        "document.querySelector('#lecture-progress-3 [role=progressbar]').dataset.read === '1'"
    )
    assert int(bar.get_attribute("aria-valuenow")) > 0
    page.wait_for_timeout(300)  # ms: the bar's width transition is 200 ms
    assert page.locator("#lecture-progress-3 .progress-bar").bounding_box()["width"] > width_before

    page.fill("#lecture-search-q", "bank conflict")
    page.locator("form.lecture-search button[type=submit]").click()
    page.wait_for_url("**/lectures/search/?q=bank+conflict")
    first = page.locator("a.search-hit-link").first
    assert first.inner_text().startswith("3.4")
    first.click()
    page.wait_for_url("**/lectures/3/#sec-3-4")
    assert page.locator("#sec-3-4 button.read-button").get_attribute("aria-pressed") == "true"

    page.goto(f"{live_server.url}/lectures/")
    assert page.locator("#lecture-progress-3 [role=progressbar]").get_attribute("data-read") == "1"
