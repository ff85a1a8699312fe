"""In real Chromium at 390x844, in Chinese and English: a record table is a card of labelled lines
per record on a phone (stack-on-phone, static/css/site.css), as the lab list and the grades are.

The problem page's table of my submissions put status and score five columns off-screen to the
right, the quiz list put my best score off-screen, and a quiz's table of my attempts made its page
430 px wide; staff's quiz list, flag queue, similarity
lists, roster and a quiz's questions did the same with their last columns. All scrolled inside their wrapper. The
grade grid stays a table that scrolls (tests/test_grid_phone_browser.py): a spreadsheet to compare
down its columns."""

from __future__ import annotations

import hashlib
from decimal import Decimal

import pytest
from django.utils import timezone

from conftest import browser_login
from gradinglab.models import Submission
from gradinglab.tests.labkit import correct_source, make_assignment
from quizzes.tests.factories import question_single, quiz_with
from tests.phonecards import PHONE, cells_on_a_phone, misplaced_on_a_phone, offset_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LANGS = ("zh-hans", "en")
# The page, the card table, and how many labelled lines one record (one row) has.
STUDENT_PAGES = {
    "problem": ("/lab/problems/vector-add/", "#my-submissions", 9),
    "quizzes": ("/quizzes/", "#graded-quizzes", 4),
    "a quiz's attempts": ("/quizzes/quiz-one/", "#my-attempts", 5),
    "my categories": ("/grades/", "#category-totals", 4),
}
STAFF_PAGES = {
    "staff quizzes": ("/quizzes/staff/", "#staff-quizzes", 4),
    "flag queue": ("/flags/", "#flag-queue", 7),
    "similarity": ("/staff/similarity/", "#similarity-assignments", 4),
    "roster": ("/accounts/staff/roster/", "#roster", 6),
    "a quiz's questions": ("/quizzes/staff/quiz-one/", "#pool", 3),
    "item analysis": ("/quizzes/quiz-one/analysis/", "table.analysis", 5),
}  # and an assignment's similar pairs (its path has the assignment's id)


def _submission(student, assignment=None, **fields) -> Submission:
    assignment, source = assignment or make_assignment(), correct_source()
    return Submission.objects.create(
        assignment=assignment, student=student, backend="triton", source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(), created_at=timezone.now(),
        queue=assignment.queue_name, status="accepted", score=Decimal("10"), **fields,
    )  # fmt: skip


def _cards(browser, live_server, username: str, pages: dict) -> dict[str, object]:
    """What each page's table is at 390 px, in each language, against what a card table is."""
    found, expected = {}, {}
    session = None  # the first context logs in through the form; the other starts in its session
    for lang in LANGS:
        context = browser.new_context(viewport=PHONE, storage_state=session)
        context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        if session is None:
            browser_login(page, live_server, username)
            cookies = context.storage_state()["cookies"]
            session = {"cookies": [c for c in cookies if c["name"] != "django_language"]}
        for name, (path, table, per_record) in pages.items():
            assert page.goto(live_server.url + path).status == 200, path
            assert "/accounts/login/" not in page.url, (lang, path)  # the session carried over
            rows = page.locator(f"{table} tbody tr").count()
            width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
            cells = cells_on_a_phone(page, table)
            found[f"{lang} {name}"] = {
                "fits": width[0] <= width[1],
                "lines": len(cells),
                "unlabelled or cut": [
                    c for c in cells if not (c["label"] or c["link"]) or c["right"] > c["window"]
                ],
                # A value of parts (a time and its badge, a title and its own): after the name.
                "misplaced": misplaced_on_a_phone(page, table),
                # Every line of a card has its name and its value where the card's others do.
                "offset": offset_on_a_phone(page, table),
            }
            expected[f"{lang} {name}"] = {
                "fits": True, "lines": per_record * max(rows, 1), "unlabelled or cut": [],
                "misplaced": [], "offset": [],
            }  # fmt: skip
        context.close()
    return {"found": found, "expected": expected}


def test_my_submissions_and_quizzes_are_cards_on_a_phone(live_server, _browser, student_a) -> None:
    from quizzes.services import attempt_start, attempt_submit

    _submission(student_a, late=True)
    quiz = quiz_with([question_single("l1-q01")], max_attempts=2)
    attempt_submit(attempt_id=attempt_start(quiz=quiz, student=student_a).pk)
    seen = _cards(_browser, live_server, "student_a", STUDENT_PAGES)
    assert seen["found"] == seen["expected"]


def test_staff_record_tables_are_cards_on_a_phone(
    live_server, _browser, student_a, student_b, ta
) -> None:
    from similarity.models import SimilarityPair, SimilarityRun

    assignment = make_assignment()
    a = _submission(
        student_a,
        assignment,
        flagged=True,
        flagged_by="staff",
        flag_reason="两个核函数都没有边界检查",
    )
    b = _submission(student_b, assignment)
    run = SimilarityRun.objects.create(
        assignment=assignment, status="done", trigger="manual", created_at=timezone.now()
    )
    SimilarityPair.objects.create(
        run=run, rank=1, submission_a=a, submission_b=b, shared=40, fraction=0.9
    )
    # A name wider than a card's value column: it must wrap there (the queue's desktop table
    # keeps its cells on one line).
    student_a.profile.display_name = "Maximiliana Konstantinopoulou-Wrzesniewska"
    student_a.profile.save()
    student_a.email = "maximiliana.konstantinopoulou-wrzesniewska@university.example.edu"
    student_a.save(update_fields=["email"])  # one word wider than a card: it must break
    quiz_with([question_single("l1-q01"), question_single("l1-q02")])
    pairs = {
        "similar pairs": (f"/staff/similarity/assignments/{assignment.pk}/", "#similarity-pairs", 6)
    }
    seen = _cards(_browser, live_server, "ta", STAFF_PAGES | pairs)
    assert seen["found"] == seen["expected"]
