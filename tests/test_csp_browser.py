"""Must hold 5 (CSP): real Chromium walks every main page as a student, a TA and an instructor
and collects Content-Security-Policy violations — `securitypolicyviolation` events and the
console's "Refused to …" lines. There must be none, with a policy that allows no inline code.

The walk also does what fires inline handlers (the language switch, submitting a quiz with its
confirmation), since Chromium checks an inline handler only when its event happens.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client

from gradebook.models import GradeItem
from gradinglab.models import Submission
from gradinglab.services.workers import worker_token_create
from gradinglab.tests import labkit
from lectures.models import Lecture
from quizzes.tests.factories import question_numeric, question_single, quiz_with

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CONTENT = Path(settings.BASE_DIR) / "content"
# Every violation is also written to the console, where the listener below picks it up.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (e) => {
  console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI} at ${e.sourceFile}:${e.lineNumber}`);
});
"""


def _content(student) -> dict[str, object]:
    """Lectures, a quiz, and a graded GPU-timed lab submission (chart, result, leaderboard)."""
    from lectures.services import content_import

    assert not content_import(
        lectures_dir=CONTENT / "lectures", pages_dir=CONTENT / "course"
    ).errors
    quiz = quiz_with(
        [question_single("csp-single", correct="b"), question_numeric("csp-num", answer="64")],
        slug="csp-quiz",
        grade_max_points=Decimal("10"),
        time_limit_minutes=30,
    )
    labkit.make_assignment(gpu_kind="h100", points=Decimal("100"))
    labkit.purge("grade-gpu-h100")
    client = Client()
    client.force_login(student)
    created = client.post(
        "/api/v1/submissions",
        data={"problem": "vector-add", "backend": "triton", "source": labkit.correct_source()},
    )
    assert created.status_code == 201, created.content
    [job] = labkit.take_jobs("grade-gpu-h100")
    worker = worker_token_create(name="csp-worker", kind="h100")
    assert labkit.post_result(Client(), worker, job["job_token"], labkit.gpu_doc()).status_code in (
        200,
        201,
    )
    return {
        "quiz": quiz,
        "submission": Submission.objects.get(),
        "item": GradeItem.objects.order_by("pk").first(),
        "lecture": Lecture.objects.get(number=3),
    }


def _watch(page) -> list[str]:
    seen: list[str] = []
    page.add_init_script(REPORT_VIOLATIONS)
    page.on(
        "console",
        lambda msg: seen.append(f"{page.url}: {msg.text}")
        if "Content Security Policy" in msg.text or "CSP violation" in msg.text
        else None,
    )
    return seen


def _visit(page, base: str, paths: list[str]) -> None:
    for path in paths:
        response = page.goto(f"{base}{path}")
        assert response is not None and response.status == 200, (path, response and response.status)
        assert "unsafe-inline" not in response.headers["content-security-policy"]
        page.wait_for_load_state("networkidle")


def _student_walk(page, base: str, data: dict[str, object]) -> str | None:
    sub = data["submission"]
    _visit(
        page,
        base,
        [
            "/",
            "/lectures/",
            "/lectures/3/",
            "/lectures/map/",
            "/lectures/cheatsheet/",
            "/lectures/search/?q=warp",
            "/quizzes/",
            "/quizzes/csp-quiz/",
            "/lab/",
            "/lab/problems/vector-add/",
            f"/lab/submissions/{sub.pk}/",
            "/lab/problems/vector-add/leaderboard/?kind=h100",
            "/grades/",
            "/grades/regrades/",
            "/accounts/profile/",
        ],
    )
    page.goto(f"{base}/lectures/3/")
    page.locator("#sec-3-4 button.read-button").click()  # htmx swap (the progress bar)
    page.wait_for_selector("#sec-3-4 button.read-button[aria-pressed=true]")
    page.wait_for_load_state("networkidle")
    page.goto(f"{base}/quizzes/csp-quiz/")
    page.click("#start-attempt")
    page.wait_for_selector("#quiz-timer")
    page.check("input[value='b']")  # autosave through htmx
    page.wait_for_selector("[data-saved='1']")
    page.once("dialog", lambda dialog: dialog.accept())  # the data-confirm question
    page.click("#submit-attempt")
    page.wait_for_url("**/review/")
    # The language switch's handler (an external script) submits its form and the page reloads;
    # a blocked handler never navigates, and the wait fails.
    with page.expect_navigation():
        page.select_option("#lang-select", "en")
    page.wait_for_load_state("networkidle")
    return page.locator("html").get_attribute("lang")


def _staff_walk(page, base: str, data: dict[str, object], instructor: bool) -> str | None:
    sub, item, lecture = data["submission"], data["item"], data["lecture"]
    paths = [
        "/grades/staff/",
        "/grades/staff/regrades/",
        f"/grades/staff/items/{item.pk}/",
        "/quizzes/csp-quiz/analysis/",
        "/lab/",
        f"/lab/submissions/{sub.pk}/",
        "/status/",
        "/staff/",
        f"/staff/people/{sub.student_id}/",
        "/admin/",
        "/admin/gradinglab/submission/",
        f"/admin/gradinglab/submission/{sub.pk}/change/",
        "/admin/quizzes/quiz/",
    ]
    if instructor:
        paths += [
            f"/admin/lectures/lecture/{lecture.pk}/change/",
            "/admin/gradebook/gradeitem/",
            "/accounts/staff/roster/",
            "/api/docs/",
        ]
    _visit(page, base, paths)
    return None


def test_no_csp_violation_on_any_main_page_for_any_role(
    live_server, _browser, login, student_a, ta, instructor
) -> None:
    data = _content(student_a)
    found: dict[str, list[str]] = {}
    languages: dict[str, str | None] = {}
    for username, walk in (
        ("student_a", lambda p: _student_walk(p, live_server.url, data)),
        ("ta", lambda p: _staff_walk(p, live_server.url, data, instructor=False)),
        ("instructor", lambda p: _staff_walk(p, live_server.url, data, instructor=True)),
    ):
        context = _browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
        context.set_default_timeout(
            40_000
        )  # ms; 2 shared cores under other runs (20 s timed out once)
        page = context.new_page()
        found[username] = _watch(page)
        login(page, username)
        languages[username] = walk(page)
        context.close()
    assert found == {"student_a": [], "ta": [], "instructor": []}
    assert languages["student_a"] == "en"  # the switch's (now external) handler ran
