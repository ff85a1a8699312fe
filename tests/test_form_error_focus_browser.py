"""In real Chromium at 390 px: a form that comes back with errors brings its first error into view
and gives it focus, on a page where the form is far below the top.

Before, a failed override or extension on a student's gradebook page reloaded the page at its top,
a long table above the forms, and the error was out of sight."""

from __future__ import annotations

import pytest

from conftest import browser_login
from gradebook.models import GradeItem
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# What has focus after the page loads, and whether it is inside the viewport.
FOCUS_JS = """() => {
  const el = document.activeElement;
  const box = el.getBoundingClientRect();
  return {tag: el.tagName, id: el.id, cls: el.className,
          inView: box.top >= 0 && box.bottom <= window.innerHeight, scrolled: window.scrollY};
}"""


def _student_page(browser, live_server, ta, student):
    for n in range(12):  # a table long enough to push the forms below the first screen
        GradeItem.objects.create(key=f"exam:e{n}", title=f"考试 {n}", max_points=10)
    context = browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    page = context.new_page()
    browser_login(page, live_server, ta)
    assert page.goto(f"{live_server.url}/grades/staff/students/{student.pk}/").status == 200
    return context, page


def test_a_field_error_brings_its_field_into_view_with_focus(live_server, _browser, ta, student_a):
    context, page = _student_page(_browser, live_server, ta.username, student_a)
    page.select_option("#id_override-item", index=1)
    page.fill("#id_override-points", "5")
    page.evaluate("document.querySelector('#override-form').noValidate = true")
    page.click("#override-form button[type=submit]")  # no reason given: a field error
    page.wait_for_load_state()
    focus = page.evaluate(FOCUS_JS)
    context.close()
    assert focus["id"] == "id_override-reason" and focus["inView"], focus
    assert focus["scrolled"] > 0, focus  # the form was below the first screen


def test_a_form_wide_error_takes_focus_itself(live_server, _browser, ta, student_a):
    context, page = _student_page(_browser, live_server, ta.username, student_a)
    page.select_option("#id_extension-item", index=1)
    page.fill("#id_extension-reason", "病假")
    page.click("#extension-form button[type=submit]")  # neither a date nor days: form-wide
    page.wait_for_load_state()
    focus = page.evaluate(FOCUS_JS)
    text = page.evaluate("document.activeElement.textContent")
    context.close()
    assert focus["tag"] == "UL" and "nonfield" in focus["cls"] and focus["inView"], focus
    assert "二选一" in text
