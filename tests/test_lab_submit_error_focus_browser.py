"""In real Chromium: a refused lab submission's error comes into view and takes focus.

The refusal (empty editor, a file of the wrong kind, code over the limit) re-renders the problem
page, and its error line sits under the submit button, some 2,800 px down at 390 px and 2,400 px at
1280 px; the page opened at its top and nothing moved, so it looked as if nothing had happened.
It now uses the site's mechanism for a form that came back with errors (static/js/site.js, as in
tests/test_form_error_focus_browser.py). Screenshots go to $PDC_SHOTS when set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from conftest import lab_editor_page
from gradinglab.models import Submission
from gradinglab.tests.labkit import make_assignment
from tests.phonecards import DESKTOP, PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

URL = "/lab/problems/vector-add/"

# What has focus once the page has loaded, and whether all of it is inside the viewport.
FOCUS_JS = """() => {
  const el = document.activeElement, box = el.getBoundingClientRect();
  return {id: el.id, role: el.getAttribute('role'), text: el.textContent,
          inView: box.top >= 0 && box.bottom <= window.innerHeight, scrolled: window.scrollY};
}"""


@pytest.mark.parametrize(
    ("lang", "viewport", "upload", "said"),
    [
        ("zh-hans", PHONE, None, "提交的代码为空"),
        ("en", PHONE, None, "The submitted code is empty"),
        ("en", DESKTOP, "kernel.txt", "takes .py files only"),
    ],
    ids=["empty-zh-390", "empty-en-390", "txt-en-1280"],
)
def test_a_refused_submission_brings_its_error_into_view_with_focus(
    live_server, _browser, student_a, lang: str, viewport: dict, upload: str | None, said: str
) -> None:
    make_assignment()
    context, page = lab_editor_page(_browser, live_server, URL, lang, viewport)
    if upload:
        page.set_input_files(
            "#file", files=[{"name": upload, "mimeType": "text/plain", "buffer": b"x = 1\n"}]
        )
    else:
        page.evaluate("window.pdcEditor.setValue('')")
    with page.expect_navigation():
        page.click("#submit-button")
    page.wait_for_selector(".CodeMirror")
    page.wait_for_load_state("load")
    focus = page.evaluate(FOCUS_JS)
    _shoot(page, f"lab-submit-error-{lang}-{viewport['width']}")
    context.close()
    assert focus["id"] == "submit-error" and focus["role"] == "alert", focus
    assert said in focus["text"] and focus["inView"], focus
    assert focus["scrolled"] > 1000, focus  # px: the error line is far below the first screen
    assert not Submission.objects.exists()


def _shoot(page, name: str) -> None:
    if os.environ.get("PDC_SHOTS"):
        shots = Path(os.environ["PDC_SHOTS"])
        shots.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(shots / f"{name}.png"))
