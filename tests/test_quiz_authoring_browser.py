"""Must hold 1 (issue 14), in real Chromium: an instructor builds a graded quiz of 6 questions from
the bank (3 picked, 3 by a rule), previews it, publishes it; a student takes it; the score is in
the gradebook; a TA cannot publish."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from gradebook.models import Grade
from gradinglab.tests.labkit import wait_until
from quizzes.models import Attempt, Question, Quiz
from quizzes.tests.factories import question_multiple, question_single

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PW = "pw-test-12345"


def _new_page(browser_page):
    context = browser_page.context.browser.new_context(
        locale="zh-CN", viewport={"width": 1280, "height": 900}
    )
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    return context.new_page()


def _build_quiz(page, url: str) -> Quiz:
    page.goto(f"{url}/quizzes/staff/")
    page.fill("#id_title", "第 2 讲小测")
    page.fill("#id_slug", "l2-mini")
    page.click("#quiz-create button[type=submit]")
    page.wait_for_url("**/quizzes/staff/l2-mini/")
    page.click("#pick-link")
    page.fill("#bank-filters #id_lecture", "1")
    page.click("#bank-filters button[type=submit]")
    page.wait_for_selector("#pick-form")
    boxes = page.locator("input[name=questions]")
    assert boxes.count() == 4  # lecture 1 only
    for i in range(3):
        boxes.nth(i).check()
    page.click("#pick-submit")
    page.wait_for_url("**/quizzes/staff/l2-mini/")
    assert page.locator("#pool tbody tr[data-bank-id]").count() == 3
    page.fill("#id_rule_count", "3")
    page.fill("#id_rule_lecture", "2")
    page.select_option("#id_rule_qtype", "multiple")
    page.fill("#id_rule_points", "1")
    page.click("#rule-add")
    page.wait_for_url("**/quizzes/staff/l2-mini/")
    assert "抽 3 道，每道 1 分" in page.inner_text("#rules")
    return Quiz.objects.get(slug="l2-mini")


def test_instructor_builds_previews_publishes_student_takes_ta_cannot_publish(
    live_server, browser_page, login
) -> None:
    singles = [question_single(f"l1-s{i}", correct="b") for i in range(4)]
    multiples = [question_multiple(f"l2-m{i}", correct="ac") for i in range(5)]
    question_single("l3-other")
    Question.objects.filter(bank_id="l3-other").update(lecture=3)  # not in the lecture-1 filter
    user_create_with_role(username="prof", password=PW, role="instructor")
    user_create_with_role(username="ta_x", password=PW, role="ta")
    student = user_create_with_role(username="stu_x", password=PW, role="student")

    page = browser_page
    login(page, "prof")
    quiz = _build_quiz(page, live_server.url)

    page.click("#preview-link")
    page.wait_for_selector("#preview-summary")
    assert page.locator(".quiz-question").count() == 6
    assert "6 道题，共 6 分" in page.inner_text("#preview-summary")
    shown = page.locator(".quiz-question").evaluate_all("els => els.map(e => e.dataset.bankId)")
    assert (
        sum(b.startswith("l1-") for b in shown) == 3
        and sum(b.startswith("l2-m") for b in shown) == 3
    )
    page.fill("#preview-seed input[name=seed]", "2")
    page.click("#preview-seed button[type=submit]")
    page.wait_for_url(re.compile(r"seed=2$"))
    assert page.locator(".quiz-question").count() == 6

    # A TA sees the draft, may edit it, but has no publish button and is refused a direct POST.
    ta_page = _new_page(browser_page)
    login(ta_page, "ta_x")
    ta_page.goto(f"{live_server.url}/quizzes/staff/{quiz.slug}/")
    assert ta_page.locator("#publish-toggle").count() == 0
    assert "发布与取消发布由教师决定" in ta_page.inner_text("#publish-note")
    token = ta_page.locator("#settings-form input[name=csrfmiddlewaretoken]").input_value()
    refused = ta_page.request.post(
        f"{live_server.url}/quizzes/staff/{quiz.slug}/publish/",
        form={"published": "1", "csrfmiddlewaretoken": token},
        headers={"Referer": f"{live_server.url}/"},
    )
    assert refused.status == 403
    quiz.refresh_from_db()
    assert not quiz.published
    ta_page.context.close()

    page.goto(f"{live_server.url}/quizzes/staff/{quiz.slug}/")
    page.click("#publish-toggle")
    page.wait_for_url("**/quizzes/staff/l2-mini/")
    assert page.inner_text("#quiz-state") == "已发布"

    # The student takes it and answers everything right.
    student_page = _new_page(browser_page)
    login(student_page, "stu_x")
    student_page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
    student_page.click("#start-attempt")
    student_page.wait_for_selector("#submit-attempt")
    attempt = Attempt.objects.get(quiz=quiz, student=student)
    assert len(attempt.question_ids) == 6
    want: dict[int, list[str]] = {}
    for question in Question.objects.filter(pk__in=attempt.question_ids).prefetch_related(
        "choices"
    ):
        for choice in question.choices.all():
            if choice.correct:
                student_page.check(f"#q{question.pk} input[value='{choice.key}']")
                want.setdefault(question.pk, []).append(choice.key)
    # A question's later saves may still be in flight when its first says saved: wait for the
    # server to hold every answer before submitting.
    wait_until(
        lambda: {a.question_id: sorted(a.selected) for a in attempt.answers.all()}
        == {pk: sorted(keys) for pk, keys in want.items()},
        timeout_s=30,
        what="every answer autosaved",
    )
    student_page.once("dialog", lambda dialog: dialog.accept())
    student_page.click("#submit-attempt")
    student_page.wait_for_url(f"**/attempt/{attempt.pk}/review/")
    assert "10" in student_page.inner_text("#attempt-score")

    grade = Grade.objects.get(student=student, item__key=quiz.gradebook_key)
    assert grade.points == Decimal("10.00") and grade.item.title == "第 2 讲小测"
    student_page.goto(f"{live_server.url}/grades/")
    assert "第 2 讲小测" in student_page.inner_text("#my-grades")
    page.goto(f"{live_server.url}/grades/staff/")
    assert "第 2 讲小测" in page.inner_text("#grid")
    student_page.context.close()
    assert singles and multiples
