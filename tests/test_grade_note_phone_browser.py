"""In real Chromium at 390x844: the grade note of a submission (成绩册中此项现为 …) stays inside
the page for staff too. Its links do not break inside themselves (site.css), which suited the
student's short 我的成绩 but pushed the staff link, "See it and change it on the student's grades
page" in English, 15 px past a phone's right edge; that long link now wraps."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from conftest import browser_login
from gradinglab.tests.labkit import make_assignment, scored_submission
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("lang", "viewer"), [("en", "ta"), ("zh-hans", "ta"), ("en", "student_a")])
def test_the_grade_note_fits_a_phone(_browser, live_server, student_a, ta, lang, viewer) -> None:
    assignment = make_assignment()
    now = timezone.now()
    first = scored_submission(assignment, student_a, "0", now - timedelta(minutes=5))
    scored_submission(assignment, student_a, "10", now)  # counts: the first one gets the note
    context = _browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    try:
        page = context.new_page()
        browser_login(page, live_server, viewer)
        assert page.goto(f"{live_server.url}/lab/submissions/{first.pk}/").status == 200
        page.wait_for_selector("#grade-note a")
        widths = page.evaluate(
            "() => [document.documentElement.scrollWidth, window.innerWidth,"
            " Math.max(...[...document.querySelectorAll('#grade-note a')]"
            ".map(a => a.getBoundingClientRect().right))]"
        )
        scroll, inner, right = widths
        assert scroll <= inner and right <= inner, widths
    finally:
        context.close()
