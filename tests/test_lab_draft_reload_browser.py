"""The lab editor never drops typed code, in real Chromium: code typed inside the autosave's pause
(or while its save fails) is still in the editor after a reload and then reaches the server; a
draft saved later from another computer is not overwritten by this browser's older copy; and
code typed just before switching backend is saved for the backend it was typed for."""

from __future__ import annotations

import pytest

from gradinglab.drafts import draft_save
from gradinglab.models import Draft, Problem
from gradinglab.tests import labkit

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

MARK = "# typed just before the reload"


def _editor_page(page, live_server, login):
    labkit.make_assignment()
    login(page, "student_a")
    page.goto(f"{live_server.url}/lab/problems/vector-add/")
    page.wait_for_selector(".CodeMirror")
    return page


def _type(page, text: str) -> None:
    page.click(".CodeMirror-code")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n" + text)


def _code(page) -> str:
    return page.evaluate("window.pdcEditor.getValue()")


def _block_autosave(page) -> None:
    # The reload comes before the autosave reached the server: no timing race decides it.
    page.route("**/draft/", lambda route: route.abort())


def _server_draft(backend: str = "triton") -> str:
    draft = Draft.objects.filter(backend=backend).first()
    return draft.source if draft else ""


def test_code_typed_before_a_reload_comes_back_and_is_saved(
    live_server, browser_page, login, student_a
) -> None:
    page = _editor_page(browser_page, live_server, login)
    _block_autosave(page)
    _type(page, MARK)
    assert MARK not in _server_draft()
    page.unroute("**/draft/")
    page.reload()
    page.wait_for_selector(".CodeMirror")
    assert MARK in _code(page)
    page.wait_for_selector("#draft-status:has-text('已恢复')")
    assert "已存为草稿" in page.inner_text("#draft-status")
    assert MARK in _server_draft()  # saved: another computer opens it too
    page.reload()  # and the browser's copy is gone once the server has it
    page.wait_for_selector(".CodeMirror")
    assert MARK in _code(page)
    assert page.evaluate("Object.keys(localStorage).length") == 0


def test_a_newer_draft_from_another_computer_is_not_overwritten(
    live_server, browser_page, login, student_a
) -> None:
    page = _editor_page(browser_page, live_server, login)
    _block_autosave(page)
    _type(page, MARK)
    problem = Problem.objects.get(slug="vector-add")
    elsewhere = "# written later on another computer\n"
    draft_save(student=student_a, problem=problem, backend="triton", source=elsewhere)
    page.unroute("**/draft/")
    page.reload()
    page.wait_for_selector(".CodeMirror")
    assert _code(page) == elsewhere
    assert _server_draft() == elsewhere


def test_code_typed_just_before_switching_backend_is_saved_for_its_backend(
    live_server, browser_page, login, student_a
) -> None:
    page = _editor_page(browser_page, live_server, login)
    _type(page, MARK)
    page.select_option("#backend", "cuda")  # inside the autosave's pause
    assert "__global__" in _code(page)
    page.wait_for_selector("#draft-status:has-text('草稿已保存')")
    assert MARK in _server_draft("triton")
    page.select_option("#backend", "triton")
    assert MARK in _code(page)


def test_logging_out_forgets_the_browsers_unsaved_copy(
    live_server, browser_page, login, student_a
) -> None:
    """A shared computer: the next person must not find the last one's unsaved code."""
    page = _editor_page(browser_page, live_server, login)
    _block_autosave(page)
    _type(page, MARK)
    assert page.evaluate("Object.keys(localStorage).length") == 1
    page.click("form[data-forget-unsaved] button")
    page.wait_for_load_state()
    assert page.evaluate("Object.keys(localStorage).length") == 0
