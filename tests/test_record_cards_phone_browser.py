"""In real Chromium at 390x844, in Chinese and English: a student's own records are cards of
labelled lines on a phone (stack-on-phone, static/css/site.css), as the lab list and the grades are.

The problem page's table of my submissions put status and score five columns off-screen to the
right, and the quiz list put my best score off-screen: both scrolled inside their wrapper."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest
from django.utils import timezone

from conftest import browser_login
from gradinglab.models import Submission
from gradinglab.tests.labkit import correct_source, make_assignment
from quizzes.tests.factories import quiz_with
from tests.phonecards import PHONE, cells_on_a_phone, misplaced_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGS = ("zh-hans", "en")
# The page, the card table, and how many labelled lines one record has.
PAGES = {
    "problem": ("/lab/problems/vector-add/", "#my-submissions", 9),
    "quizzes": ("/quizzes/", "#graded-quizzes", 4),
}


def test_my_submissions_and_quizzes_are_cards_on_a_phone(live_server, _browser, student_a) -> None:
    assignment, source = make_assignment(), correct_source()
    Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(), created_at=timezone.now(),
        queue=assignment.queue_name, status="accepted", score=Decimal("10"), late=True,
    )  # fmt: skip
    quiz_with([])
    found: dict[str, object] = {}
    for lang in LANGS:
        context = _browser.new_context(viewport=PHONE)
        context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        browser_login(page, live_server, "student_a")
        for name, (path, table, lines) in PAGES.items():
            assert page.goto(live_server.url + path).status == 200, path
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            cells = cells_on_a_phone(page, table)
            found[f"{lang} {name}"] = {
                "fits": width[0] <= width[1],
                "lines": len(cells),
                "unlabelled or cut": [
                    c for c in cells if not c["label"] or c["right"] > c["window"]
                ],
                # A time with its "late" badge, a title with its own: one value each, after the name.
                "misplaced": misplaced_on_a_phone(page, table),
            }
            expected = {"fits": True, "lines": lines, "unlabelled or cut": [], "misplaced": []}
            assert found[f"{lang} {name}"] == expected, (lang, name, found)
        context.close()
