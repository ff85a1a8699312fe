"""A typed (numeric) answer survives a reload inside its autosave's 600 ms pause, in real
Chromium: it is back in its box after the reload and then reaches the server; an answer saved
since (another tab) is not overwritten by the browser's older copy. The page promises "after a
reload ... your answers are still here", and a typed one was lost."""

from __future__ import annotations

import pytest

from accounts.services import user_create_with_role
from conftest import browser_login
from gradinglab.tests.labkit import wait_until
from quizzes.models import Answer, Attempt
from quizzes.services import answer_save
from quizzes.tests.factories import question_numeric, quiz_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ANSWER_URL = "**/answer/**"


def _start(page, live_server):
    student = user_create_with_role(username="stu_typed", password="pw-test-12345", role="student")
    question = question_numeric("typed-num", answer="64", abs_tol="0")
    quiz = quiz_with([question], slug="typed-quiz")
    browser_login(page, live_server, "stu_typed", "pw-test-12345")
    page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
    page.click("#start-attempt")
    page.wait_for_selector(f"#q{question.pk} input[type=text]")
    return student, question, Attempt.objects.get(student=student)


def _type_unsaved(page, question, text: str) -> None:
    page.route(ANSWER_URL, lambda route: route.abort())  # the reload comes before the autosave
    page.fill(f"#q{question.pk} input[type=text]", text)
    page.wait_for_timeout(1000)  # past the 600 ms pause: its save was tried, and failed
    page.unroute(ANSWER_URL)


def _stored(attempt) -> str | None:
    answer = Answer.objects.filter(attempt=attempt).first()
    return answer.value if answer else None


def test_a_typed_answer_comes_back_after_a_reload_and_is_saved(live_server, browser_page) -> None:
    page = browser_page
    _student, question, attempt = _start(page, live_server)
    _type_unsaved(page, question, "63.5")
    assert _stored(attempt) is None
    page.reload()
    box = page.locator(f"#q{question.pk} input[type=text]")
    assert box.input_value() == "63.5"
    page.wait_for_selector(f"#status-{question.pk} [data-saved='1']")
    wait_until(lambda: _stored(attempt) == "63.5", timeout_s=15, what="the restored answer")
    page.reload()
    assert page.locator(f"#q{question.pk} input[type=text]").input_value() == "63.5"
    assert (
        page.evaluate("Object.keys(localStorage).filter(k => k.startsWith('pdc-unsaved:')).length")
        == 0
    )


def test_an_answer_saved_since_is_not_overwritten(live_server, browser_page) -> None:
    page = browser_page
    student, question, attempt = _start(page, live_server)
    _type_unsaved(page, question, "63.5")
    answer_save(
        attempt_id=attempt.pk, student=student, question_id=question.pk, data={"value": ["64"]}
    )
    page.reload()
    assert page.locator(f"#q{question.pk} input[type=text]").input_value() == "64"
    page.wait_for_timeout(1000)
    assert _stored(attempt) == "64"
