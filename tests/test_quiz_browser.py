"""Must hold 6, in real Chromium: a student takes a graded quiz, reloads half-way and finds the
answers, submits, sees the score and explanations as the review options allow, and the gradebook
shows the score."""

from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from gradebook.models import Grade
from gradinglab.tests.labkit import wait_until
from quizzes.models import Attempt, Question
from quizzes.selectors import attempt_questions
from quizzes.tests.factories import question_multiple, question_numeric, question_single, quiz_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _wait_saved(page, question: Question) -> None:
    page.wait_for_selector(f"#status-{question.pk} [data-saved='1']")


def test_student_takes_graded_quiz_with_reload_review_and_gradebook(
    live_server,
    browser_page,
    login,
) -> None:
    student = user_create_with_role(username="stu_quiz", password="pw-test-12345", role="student")
    single = question_single("br-single", correct="b")
    multiple = question_multiple("br-multi", correct="ac")
    numeric = question_numeric("br-num", answer="64", abs_tol="0")
    param = Question.objects.create(
        bank_id="br-param",
        lecture=1,
        section="sec-1-17",
        qtype="param",
        generator="amdahl_speedup",
        stem="p = {p}，n = {n}，加速比？",
        explanation="Amdahl：s = 1/((1−p)+p/n)（§1.17）",
    )
    quiz = quiz_with(
        [single, multiple, numeric, param],
        slug="browser-quiz",
        title="浏览器测验",
        grade_max_points=Decimal("10"),
        time_limit_minutes=30,
        review_correctness_after=True,
        review_points_after=True,
        review_explanation_after=True,
        review_right_answer_after=False,
    )
    page = browser_page
    login(page, "stu_quiz")
    page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
    page.click("#start-attempt")
    page.wait_for_selector("#quiz-timer")
    attempt = Attempt.objects.get(quiz=quiz, student=student)

    # half of the answers, each autosaved as it is chosen
    page.check(f"#q{single.pk} input[value='b']")
    _wait_saved(page, single)
    page.check(f"#q{multiple.pk} input[value='a']")
    _wait_saved(page, multiple)
    page.check(f"#q{multiple.pk} input[value='d']")  # wrong box: multiple becomes wrong
    page.wait_for_function(
        "pk => document.querySelectorAll(`#status-${pk} [data-saved='1']`).length > 0",
        arg=multiple.pk,
    )
    # The second save (a and d) may still be in flight: wait for the server to hold it.
    wait_until(
        lambda: dict(attempt.answers.values_list("question__bank_id", "selected")).get("br-multi")
        == ["a", "d"],
        timeout_s=30,
        what="the second autosave of br-multi",
    )

    page.reload()
    assert page.is_checked(f"#q{single.pk} input[value='b']")
    assert page.is_checked(f"#q{multiple.pk} input[value='a']")
    assert page.is_checked(f"#q{multiple.pk} input[value='d']")
    assert dict(attempt.answers.values_list("question__bank_id", "selected"))["br-multi"] == [
        "a",
        "d",
    ]

    # the rest, including the parameterized question computed from the numbers on screen
    page.fill(f"#q{numeric.pk} input[name=value]", "64")
    page.keyboard.press("Tab")
    _wait_saved(page, numeric)
    view = next(v for v in attempt_questions(attempt) if v.question.pk == param.pk)
    p, n = view.params["p"], view.params["n"]
    assert f"p = {p}，n = {n}" in page.inner_text(f"#q{param.pk} .stem")
    page.fill(f"#q{param.pk} input[name=value]", f"{1 / ((1 - p) + p / n):.4f}")
    page.keyboard.press("Tab")
    _wait_saved(page, param)

    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#submit-attempt")
    page.wait_for_url(f"**/attempt/{attempt.pk}/review/")
    score = page.inner_text("#attempt-score")
    assert "7.50" in score and "/ 10" in score  # 3 of 4 right
    main = page.inner_text("main")
    assert "解析" in main and "Amdahl" in main and "✓" in main and "✗" in main
    assert "正确答案" not in main  # review options hide the right answer right after submitting

    grade = Grade.objects.get(student=student, item__key=quiz.gradebook_key)
    assert grade.points == Decimal("7.50")
    page.goto(f"{live_server.url}/grades/")
    grades_text = page.inner_text("main")
    assert "浏览器测验" in grades_text and "7.5" in grades_text


def test_offline_autosave_is_reported_and_reconnect_restores_saved_answers(
    live_server,
    browser_page,
    login,
) -> None:
    user_create_with_role(username="stu_offline", password="pw-test-12345", role="student")
    first, second = question_single("off-1", correct="a"), question_single("off-2", correct="a")
    quiz = quiz_with([first, second], slug="offline-quiz", title="断线测验")
    page = browser_page
    login(page, "stu_offline")
    page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
    page.click("#start-attempt")
    page.wait_for_selector("#autosave-note")
    page.check(f"#q{first.pk} input[value='c']")
    _wait_saved(page, first)

    page.context.set_offline(True)
    page.check(f"#q{second.pk} input[value='b']")
    alert = page.wait_for_selector(f"#status-{second.pk} [role=alert]")
    assert "网络中断" in alert.inner_text()

    page.context.set_offline(False)
    page.reload()
    assert page.is_checked(f"#q{first.pk} input[value='c']")  # saved before the outage
    assert not page.is_checked(f"#q{second.pk} input[value='b']")  # never reached the server
    page.check(f"#q{second.pk} input[value='b']")
    _wait_saved(page, second)
    attempt = Attempt.objects.get(quiz=quiz)
    assert dict(attempt.answers.values_list("question__bank_id", "selected")) == {
        "off-1": ["c"],
        "off-2": ["b"],
    }


def test_submit_question_counts_open_questions_in_english(live_server, browser_page, login) -> None:
    """The confirm before submitting names the open questions: "2 questions are", "1 question is"."""
    user_create_with_role(username="stu_count", password="pw-test-12345", role="student")
    one, two = question_single("br-c1"), question_single("br-c2")
    quiz = quiz_with([one, two], slug="count-quiz")
    page = browser_page
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    login(page, "stu_count")
    page.goto(f"{live_server.url}/quizzes/{quiz.slug}/")
    page.click("#start-attempt")
    asked: list[str] = []

    def answer_no(dialog) -> None:
        asked.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", answer_no)
    page.click("#submit-attempt")
    page.check(f"#q{one.pk} input[value='a']")
    _wait_saved(page, one)
    page.click("#submit-attempt")
    assert [m.split("\n")[0] for m in asked] == [
        "2 questions are not answered yet.",
        "1 question is not answered yet.",
    ]
