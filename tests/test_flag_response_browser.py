"""Issue 17, Must hold 4, in Chromium against a live server: a student with a rejected timed result
sees the evidence in words and responds; a TA restores the score with a reason from the queue the
staff desk links; the gradebook shows the restored score with its audit row; the leaderboard hides
the submission until then (checked before and after).

The rejected result is made as the lab's tests make graded results: the student submits through
the API, the job is taken from the real broker and the result document is posted to the worker API
by an h100 worker credential (no GPU here: the GPU part of the document is made up, see
flagreview/tests/kit.py). Each page is also checked at 390 px and in English (no page-wide
horizontal scroll); screenshots go to $PDC_SHOTS when set."""

from __future__ import annotations

import contextlib
import os
import re
from pathlib import Path

import pytest
from django.test import Client

from accounts.models import Profile
from flagreview.tests.kit import gpu_assignment, graded, rejected_doc
from gradinglab.tests.labkit import gpu_worker_token  # noqa: F401  (a fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

RESPONSE = "The kernel reads each element once with 128-bit loads; please re-time it."
REASON = "Floor table listed the PCIe part; the SXM run is plausible."
CJK = re.compile(r"[\u4e00-\u9fff]")


def _no_capture(execute: bool = True):
    return contextlib.nullcontext()  # live server: on_commit runs at each real commit


def _check_layouts(page, live_server, name: str, english_words: str) -> None:
    """The page at 390 px and 1280 px, in Chinese and English: no page-wide horizontal scroll,
    the English page's headings and labels in English; screenshots when $PDC_SHOTS is set."""
    shots = Path(os.environ["PDC_SHOTS"]) if os.environ.get("PDC_SHOTS") else None
    for lang in ("zh-hans", "en"):
        page.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        for width in (1280, 390):
            page.set_viewport_size({"width": width, "height": 900})
            page.reload()
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 1, (name, lang, width, overflow)
            if lang == "en":
                ui = " ".join(page.locator("h1, h2, th, label, button, dt").all_inner_texts())
                assert not CJK.search(ui), (name, ui[:300])
                assert english_words in page.inner_text("main"), name
            if shots:
                shots.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(shots / f"{name}-{lang}-{width}.png"), full_page=True)
    page.context.add_cookies(
        [{"name": "django_language", "value": "zh-hans", "url": live_server.url}]
    )
    page.set_viewport_size({"width": 1280, "height": 900})
    page.reload()


def _new_page(browser):
    context = browser.new_context(locale="zh-CN", viewport={"width": 1280, "height": 900})
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    return context.new_page()


def test_student_answers_a_rejection_ta_restores_gradebook_and_leaderboard_follow(
    live_server,
    _browser,
    login,
    student_a,
    ta,
    gpu_worker_token,  # noqa: F811
) -> None:
    assignment = gpu_assignment()
    Profile.objects.update_or_create(
        user=student_a,
        defaults={"student_id": "A1", "display_name": "A", "pseudonym": "warp-speed"},
    )
    student_client = Client()
    student_client.force_login(student_a)
    sub = graded(Client(), student_client, gpu_worker_token, rejected_doc(0.01), _no_capture)
    board = f"{live_server.url}/lab/problems/vector-add/leaderboard/?kind=h100"

    # The student: the leaderboard does not show the rejected run; the evidence does, in words.
    page = _new_page(_browser)
    login(page, "student_a")
    page.goto(board)
    assert "warp-speed" not in page.inner_text("main")
    page.goto(f"{live_server.url}/lab/submissions/{sub.pk}/")
    assert "被拒绝" in page.inner_text(".verdict")  # the status by its label
    assert "flagged for TA review" not in page.inner_text("main")  # raw flags are for staff
    assert "物理下限 0.0601 ms" in page.inner_text("#flag-notice")
    assert "比硬件允许的还快（0.0100 ms < 下限 0.0601 ms）" in page.inner_text(".result-message")
    if os.environ.get("PDC_SHOTS"):
        page.screenshot(path=f"{os.environ['PDC_SHOTS']}/lab-submission-notice.png", full_page=True)
    page.click("#flag-case-link")
    page.wait_for_url(f"**/flags/submissions/{sub.pk}/")
    evidence = page.inner_text("#evidence")
    assert "低于这台设备（NVIDIA H100 80GB HBM3）的物理下限 0.0601 ms" in evidence
    assert "快 25.0 倍" in evidence
    assert page.inner_text("#fig-median") == "0.0100 ms"
    assert page.inner_text("#fig-floor") == "0.0601 ms"
    assert page.inner_text("#fig-reference") == "0.2500 ms"
    assert page.inner_text("#fig-speedup") == "25.0×"
    _check_layouts(page, live_server, "flag-evidence-student", "physical floor")
    page.fill("#id_text", RESPONSE)
    page.click("#response-form button[type=submit]")
    page.wait_for_selector("#response-text")
    assert RESPONSE in page.inner_text("#response-text")
    assert page.locator("#response-form").count() == 0  # once only
    page.goto(board)
    assert "warp-speed" not in page.inner_text("main")  # answered, still unresolved: hidden

    # The TA: the gradebook counts 0 for the rejected run; staff desk -> open flags -> the case
    # -> restore with a reason.
    ta_page = _new_page(_browser)
    login(ta_page, "ta")
    ta_page.goto(f"{live_server.url}/grades/staff/students/{student_a.pk}/")
    cells = ta_page.locator(f'#student-items tr[data-key="lab:{assignment.pk}"] td.num')
    assert cells.all_inner_texts()[3] == "0"
    ta_page.goto(f"{live_server.url}/staff/")
    assert ta_page.inner_text("#open-flags") == "1"
    ta_page.click("#flag-queue-link")
    ta_page.wait_for_url("**/flags/")
    row = ta_page.locator(f'#flag-queue tr[data-submission="{sub.pk}"]')
    assert "已回应" in row.inner_text() and "被拒绝" in row.inner_text()
    _check_layouts(ta_page, live_server, "flag-queue-ta", "Open flags")
    ta_page.locator(f'#flag-queue tr[data-submission="{sub.pk}"] a').click()
    assert RESPONSE in ta_page.inner_text("#response-text")
    assert "flagged for TA review" in ta_page.text_content("#evidence")  # raw, staff only
    _check_layouts(ta_page, live_server, "flag-case-ta", "Reason (the student sees it")
    ta_page.check('input[name="decision"][value="restore"]')
    assert ta_page.input_value("#id_points") == "10.00"  # suggested: the run as measured
    ta_page.fill("#id_reason", REASON)
    ta_page.click("#verdict-form button[type=submit]")
    ta_page.wait_for_url("**/flags/")
    assert "没有。" in ta_page.inner_text("#flag-queue")

    # The gradebook: the restored score, and the audit row with the TA's reason.
    ta_page.goto(f"{live_server.url}/grades/staff/students/{student_a.pk}/")
    cells = ta_page.locator(f'#student-items tr[data-key="lab:{assignment.pk}"] td.num')
    assert cells.all_inner_texts()[0] == cells.all_inner_texts()[3] == "10"  # auto, counted
    audit = ta_page.locator('tr[data-action="sub_override"]')
    assert audit.count() == 1 and REASON in audit.inner_text() and "ta" in audit.inner_text()

    # The leaderboard now ranks it; the student sees the verdict.
    page.goto(board)
    assert "warp-speed" in page.inner_text("main") and "0.0100" in page.inner_text("main")
    page.goto(f"{live_server.url}/flags/submissions/{sub.pk}/")
    assert page.inner_text("#verdict-decision") == "恢复分数"
    assert page.inner_text("#case-score") == "10.00"
    page.context.close()
    ta_page.context.close()
