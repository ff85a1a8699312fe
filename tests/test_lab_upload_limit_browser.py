"""In real Chromium: a lab upload over the request limit is stopped in the page, not sent.

The server refuses a body over PDC_MAX_REQUEST_BYTES before any view reads it, with a page of its
own (pdcsite.security.BodyLimitMiddleware): a student who picked a 3 MiB file lost the editor.
site.js measures the chosen file against the limit the problem page carries (data-max-bytes) and
says so under the submit button; nothing is posted and the edited code stays in the editor.
Screenshots go to $PDC_SHOTS when set."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings

from conftest import lab_editor_page
from gradinglab.models import Submission
from gradinglab.tests.labkit import make_assignment

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

URL = "/lab/problems/vector-add/"


def _file(name: str, size: int) -> dict:
    return {"name": name, "mimeType": "text/x-python", "buffer": b"#" * size}


@pytest.mark.parametrize(("lang", "width"), [("zh-hans", 1280), ("en", 390)])
def test_too_large_upload_is_stopped_in_the_page_with_the_code_kept(
    live_server, _browser, student_a, lang: str, width: int
) -> None:
    make_assignment()
    limit = settings.PDC_MAX_REQUEST_BYTES
    context, page = lab_editor_page(
        _browser, live_server, URL, lang, {"width": width, "height": 900}
    )
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    page.click(".CodeMirror-code")
    page.keyboard.press("Control+End")
    page.keyboard.type("\n# my edit 42\n")
    page.evaluate("window.stillThisPage = true")  # gone if the browser loads another page

    page.set_input_files("#file", files=[_file("huge.py", limit + 1)])
    error = page.locator("#submit-error")
    kib = f"{limit // 1024} KiB"
    expected = "上传上限" if lang == "zh-hans" else "upload limit"
    assert error.is_visible() and kib in error.inner_text() and expected in error.inner_text()
    page.click("#submit-button")
    page.click("#test-button")  # the public-test run posts the same form
    assert page.evaluate("window.stillThisPage") is True
    assert page.url == live_server.url + URL
    assert "# my edit 42" in page.evaluate("window.pdcEditor.getValue()")
    assert expected in error.inner_text()
    assert not [u for u in posts if "/submit/" in u], posts
    _shoot(page, f"upload-too-large-{lang}-{width}")

    # A file that fits clears the message and goes to the server as before.
    page.set_input_files("#file", files=[_file("small.py", 1000)])
    assert error.inner_text() == "" and not error.is_visible()
    context.close()
    assert not Submission.objects.exists()


def _shoot(page, name: str) -> None:
    if os.environ.get("PDC_SHOTS"):
        shots = Path(os.environ["PDC_SHOTS"])
        shots.mkdir(parents=True, exist_ok=True)
        page.locator("#submit-form").screenshot(path=str(shots / f"{name}.png"))
