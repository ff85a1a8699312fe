"""The staff pages of issue 14 in Chromium, as an instructor and as a TA, in Chinese and English,
on a desktop and a 390 px phone: no horizontal page scroll, and English pages show English UI.
Screenshots go to $PDC_SHOTS when set (for looking at them by eye)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.utils import timezone

from accounts.services import user_create_with_role
from conftest import browser_login
from gradebook.services import grade_record, regrade_request_create
from gradinglab.models import Submission
from gradinglab.services.results import assignment_grade_item
from gradinglab.tests.labkit import make_assignment
from quizzes.authoring import RuleSpec, pool_add, rule_add
from quizzes.tests.factories import question_multiple, question_single, quiz_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PW = "pw-test-12345"
CJK = re.compile(r"[\u4e00-\u9fff]")
# The status page's "OK" lines (p.ok) are in the messages' success colour, as its failures are in
# the error colour: they were the page's plain text.
OK_IN_SUCCESS_COLOUR = """() => {
  const probe = document.body.appendChild(document.createElement('span'));
  probe.className = 'msg-success';
  const success = getComputedStyle(probe).color;
  probe.remove();
  const oks = [...document.querySelectorAll('p.ok')];
  return oks.length > 0 && oks.every(p => getComputedStyle(p).color === success);
}"""


def _data():
    student = user_create_with_role(username="stu_w", password=PW, role="student", name="王五")
    user_create_with_role(username="prof_w", password=PW, role="instructor")
    user_create_with_role(username="ta_w", password=PW, role="ta")
    singles = [question_single(f"w-s{i}") for i in range(3)]
    [question_multiple(f"w-m{i}") for i in range(3)]
    quiz = quiz_with([], slug="walk", title="Quiz W", published=False)
    pool_add(quiz=quiz, question_ids=[q.pk for q in singles])
    from decimal import Decimal

    rule_add(quiz=quiz, spec=RuleSpec(count=2, points=Decimal("1"), lecture=2))
    # Published: a TA sees its settings as a disabled fieldset (it was 40 px wider than a phone).
    quiz_with([singles[0]], slug="walkpub", title="Quiz P", published=True)
    assignment = make_assignment(title="Lab W")
    sub = Submission.objects.create(
        assignment=assignment, student=student, backend="triton", source="x", sha256="0" * 64,
        created_at=timezone.now(), status="accepted", score=Decimal("10"),
    )  # fmt: skip
    item = assignment_grade_item(assignment)
    grade_record(student=student, item=item, points=10, source="lab", ref=f"submission:{sub.pk}")
    regrade_request_create(
        student=student, item=item, ref=f"submission:{sub.pk}",
        message="第二个测试的容差似乎太紧了，请复核。",
    )  # fmt: skip
    return student, quiz, sub


def _pages(student, quiz, sub) -> list[str]:
    return [
        "/staff/",
        "/quizzes/staff/",
        "/quizzes/staff/bank/?quiz=walk",
        f"/quizzes/staff/{quiz.slug}/",
        "/quizzes/staff/walkpub/",
        f"/quizzes/staff/{quiz.slug}/preview/?seed=3",
        "/quizzes/staff/bank/new/",
        "/accounts/staff/roster/",
        f"/staff/people/{student.pk}/",
        f"/grades/staff/students/{student.pk}/?item=1",
        "/grades/staff/",
        "/grades/staff/regrades/",
        "/status/",
    ]


@pytest.mark.parametrize("who", ["prof_w", "ta_w"])
def test_staff_pages_fit_a_phone_and_speak_one_language(live_server, browser_page, who) -> None:
    student, quiz, sub = _data()
    shots = Path(os.environ["PDC_SHOTS"]) if os.environ.get("PDC_SHOTS") else None
    browser = browser_page.context.browser
    # Instructor: both languages, phone and desktop; TA (same templates, fewer buttons): the
    # phone in both languages. Keeps the walk's cost down on a shared 2-core machine.
    session = None  # the first context logs in through the form; the others start in its session
    for lang in ("zh-hans", "en"):
        for width in (1280, 390) if who == "prof_w" else (390,):
            context = browser.new_context(
                viewport={"width": width, "height": 900}, storage_state=session
            )
            context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
            context.add_cookies([{"name": "django_language", "value": lang,
                                  "url": live_server.url}])  # fmt: skip
            page = context.new_page()
            if session is None:
                browser_login(page, live_server, who, PW)
                cookies = context.storage_state()["cookies"]
                session = {"cookies": [c for c in cookies if c["name"] != "django_language"]}
            for path in _pages(student, quiz, sub):
                response = page.goto(f"{live_server.url}{path}")
                assert response.status == 200, (who, path)
                assert "/accounts/login/" not in page.url, (who, lang, width, path)  # logged in
                overflow = page.evaluate(
                    "document.documentElement.scrollWidth - document.documentElement.clientWidth"
                )
                assert overflow <= 1, (who, lang, width, path, overflow)
                if path == "/status/":
                    assert page.evaluate(OK_IN_SUCCESS_COLOUR), (who, lang, width)
                if lang == "en" and path != "/grades/staff/":  # its columns are stored names
                    headings = " ".join(page.locator("h1, h2, th, label, button").all_inner_texts())
                    names = {"王五"}
                    leftover = CJK.findall(
                        "".join(ch for ch in headings if ch not in "".join(names))
                    )
                    assert not leftover, (who, path, headings[:300])
                if shots:
                    shots.mkdir(parents=True, exist_ok=True)
                    name = f"{who}-{lang}-{width}-{path.strip('/').replace('/', '_')[:60]}.png"
                    page.screenshot(path=str(shots / name), full_page=True)
            context.close()
