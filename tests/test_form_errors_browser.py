"""In real Chromium at 390 px: when a posted form comes back with errors, they stand out. The list
above the form is in the error colour inside a border, a field's own error is in the error colour,
and the field it names gets the error colour as its border.

Before, Django's `errorlist` had no style, so "Choose an existing item, or …" after a failed
grade import read as an ordinary bullet of the page."""

from __future__ import annotations

import pytest

from conftest import browser_login
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BAD = "rgb(179, 38, 30)"  # --bad, #b3261e, in the light theme
BAD_DARK = "rgb(255, 144, 137)"  # --bad, #ff9089, in dark.css

STYLE_JS = """(sel) => [...document.querySelectorAll(sel)].map(e => {
  const s = getComputedStyle(e);
  return {color: s.color, border: s.borderTopColor, borderWidth: s.borderTopWidth,
          text: e.textContent.trim()};
})"""


def _page(browser, live_server, user: str, path: str, scheme: str = "light"):
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": "en", "url": live_server.url}])
    page = context.new_page()
    browser_login(page, live_server, user)
    assert page.goto(live_server.url + path).status == 200
    return context, page


def test_a_forms_own_errors_are_boxed_in_the_error_colour(
    live_server, _browser, instructor, tmp_path
):
    csv = tmp_path / "scores.csv"
    csv.write_text("username,points\nnobody,5\n", encoding="utf-8")
    context, page = _page(_browser, live_server, instructor.username, "/grades/staff/import/")
    page.set_input_files("input[type=file]", str(csv))
    page.click("form.stack button[type=submit]")
    page.wait_for_load_state()
    errors = page.evaluate(STYLE_JS, "ul.errorlist.nonfield")
    context.close()
    assert errors and "existing item" in errors[0]["text"], errors  # no item chosen or named
    assert errors[0]["color"] == BAD and errors[0]["border"] == BAD, errors
    assert errors[0]["borderWidth"] == "1px", errors


@pytest.mark.parametrize(("scheme", "bad"), [("light", BAD), ("dark", BAD_DARK)])
def test_a_fields_error_and_its_input_take_the_error_colour(
    live_server, _browser, student_a, scheme, bad
):
    context, page = _page(_browser, live_server, student_a.username, "/accounts/password/", scheme)
    page.fill("#id_old_password", "not-the-password")
    page.fill("#id_new_password1", "a-new-long-pass-2026")
    page.fill("#id_new_password2", "a-new-long-pass-2026")
    page.click("form.stack button[type=submit]")
    page.wait_for_load_state()
    errors = page.evaluate(STYLE_JS, "ul.errorlist:not(.nonfield)")
    field = page.evaluate(STYLE_JS, "#id_old_password")
    invalid = page.get_attribute("#id_old_password", "aria-invalid")
    context.close()
    assert errors and all(e["color"] == bad for e in errors), errors
    assert invalid == "true" and field[0]["border"] == bad, (invalid, field)
