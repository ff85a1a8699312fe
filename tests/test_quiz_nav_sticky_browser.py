"""A question reached from the attempt page's navigator starts below the sticky timer-and-navigator
bar, in real Chromium: on a phone in English (the timer's note wraps) and with more questions than
one row of buttons holds, as on a desktop in Chinese. The bar used to cover the question's
heading: a fixed 7rem scroll margin, shorter than the bar."""

from __future__ import annotations

import pytest

from accounts.services import user_create_with_role
from conftest import browser_login
from quizzes.tests.factories import question_single, quiz_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

QUESTIONS = 14  # two rows of navigator buttons at 390 px


@pytest.mark.parametrize(("lang", "width"), [("en", 390), ("zh-hans", 390), ("zh-hans", 1280)])
def test_a_question_jumped_to_is_not_under_the_sticky_bar(
    live_server, _browser, lang: str, width: int
) -> None:
    user_create_with_role(username="stu_nav", password="pw-test-12345", role="student")
    questions = [question_single(f"nav-{n}") for n in range(QUESTIONS)]
    quiz = quiz_with(questions, slug="nav-quiz", time_limit_minutes=30)
    context = _browser.new_context(viewport={"width": width, "height": 800})
    context.set_default_timeout(15_000)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page = context.new_page()
    try:
        browser_login(page, live_server, "stu_nav", "pw-test-12345")
        page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
        page.click("#start-attempt")
        page.wait_for_selector("#quiz-timer")
        for number in (3, 8, QUESTIONS - 3):
            question = questions[number - 1]
            page.click(f".quiz-nav a[data-question='{question.pk}']")
            page.wait_for_timeout(300)  # the jump is instant; the URL fragment is set
            bar = page.locator("#quiz-bar").bounding_box()
            heading = page.locator(f"#q{question.pk}-h").bounding_box()
            assert heading["y"] >= bar["y"] + bar["height"], (number, bar, heading)
    finally:
        context.close()
