"""Must hold 7, in real Chromium against a live server and a real Celery worker: a student submits
from the editor, watches the phases, sees the score; a TA regrades it in the admin."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gradinglab.models import Submission, SubmissionResult
from gradinglab.services.workers import worker_token_create
from gradinglab.tests import labkit
from tests.phonecards import measured_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

GRADE_MS = 240_000  # ms: worker start plus an interpreter run on 2 busy cores


def test_student_submits_from_editor_watches_phases_sees_score_ta_regrades(
    live_server, browser_page, login, student_a, ta, _browser, tmp_path: Path
) -> None:
    labkit.make_assignment()
    labkit.purge()
    log = tmp_path / "worker.log"
    worker = labkit.start_worker(
        app="gradinglab.worker",
        api_url=live_server.url,
        token=worker_token_create(name="browser-cpu", kind="cpu"),
        log_path=log,
    )
    try:
        page = browser_page
        login(page, "student_a")
        page.goto(f"{live_server.url}/lab/problems/vector-add/")
        page.wait_for_selector(".CodeMirror")  # our served CodeMirror replaced the textarea
        assert "@triton.jit" in page.evaluate("window.pdcEditor.getValue()")  # starter loaded
        page.evaluate(f"window.pdcEditor.setValue({json.dumps(labkit.slow_correct_source())})")
        page.click(".CodeMirror-code")
        page.keyboard.press("Control+End")
        page.keyboard.type("\n# ready to submit\n")
        page.click("#submit-button")
        page.wait_for_url("**/lab/submissions/*/")
        page.wait_for_selector('.phases li.current[data-phase="testing"]', timeout=GRADE_MS)
        page.wait_for_selector("#score", timeout=GRADE_MS)
        assert page.inner_text("#score") == "10.00"
        assert "通过" in page.inner_text(".verdict")
        # The worker's message ids survive the result API: the verdict reads in Chinese.
        assert page.inner_text(".result-message").startswith("全部 ")
        assert page.locator('.result-message [lang="en"]').count() == 0
        sub = Submission.objects.get()
        assert sub.source.rstrip().endswith("# ready to submit")
        _tests_are_cards_on_a_phone(page)

        # The TA regrades it from the admin's submission list.
        context = _browser.new_context(locale="zh-CN")
        context.set_default_timeout(15_000)
        ta_page = context.new_page()
        login(ta_page, "ta")
        ta_page.goto(f"{live_server.url}/admin/gradinglab/submission/")
        ta_page.check(f'input[name="_selected_action"][value="{sub.pk}"]')
        ta_page.select_option('select[name="action"]', "rerun_selected")
        ta_page.click('button[name="index"]')
        ta_page.wait_for_selector("text=已重新排队 1 个提交")
        labkit.wait_until(
            lambda: SubmissionResult.objects.filter(submission=sub, round=2).exists(),
            timeout_s=GRADE_MS / 1000,
            what="the regrade result",
            log_path=log,
            proc=worker,
        )
        ta_page.goto(f"{live_server.url}/admin/gradinglab/submission/{sub.pk}/change/")
        assert "通过" in ta_page.inner_text("body")  # the status by its label, never the code
        context.close()
    finally:
        labkit.stop_worker(worker)
    sub.refresh_from_db()
    assert (sub.round, sub.status, str(sub.score)) == (2, "accepted", "10.00")


def _tests_are_cards_on_a_phone(page) -> None:
    """At 390 px each test is a card of labelled lines: nothing scrolls sideways, not even the table."""
    m = measured_on_a_phone(page, ".status-box table", "tbody tr td")
    assert m["page"] <= m["inner"], m
    assert m["wrap"] <= m["wrapClient"], m  # the table no longer scrolls inside its wrapper
    assert m["label"] == '"测试"', m  # each line names its column
    assert m["rows"] >= 2 and m["rowWidth"] <= m["wrapClient"], m
