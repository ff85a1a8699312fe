"""In real Chromium at 390 px: the forms Django renders field by field (`_post_form.html`) read
like the sign-in page, each label above its field and each text field as wide as the form.

Before, `as_div` put a label and a narrow box on one line ("Old password: [____]"), and the
password rules stood between "New password:" and its box."""

from __future__ import annotations

import pytest

from conftest import browser_login
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per text field of the page's stacked form: its label's bottom and its own top (px), and its
# width as a fraction of the form's.
MEASURE_JS = """() => {
  const form = document.querySelector('main form.stack, form.stack');
  const fields = form.querySelectorAll(
    ':scope > div > :is(input:not([type=checkbox],[type=radio],[type=file],[type=hidden]), select, textarea)');
  return [...fields].map(f => {
    const label = form.querySelector(`label[for="${f.id}"]`).getBoundingClientRect();
    const box = f.getBoundingClientRect();
    return {id: f.id, labelBottom: label.bottom, top: box.top,
            width: box.width / form.getBoundingClientRect().width};
  });
}"""

PAGES = [("student_a", "/accounts/password/"), ("instructor", "/grades/staff/import/")]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_labels_stand_above_full_width_fields(live_server, _browser, student_a, instructor, lang):
    bad: dict[str, list[dict]] = {}
    for user, path in PAGES:
        context = _browser.new_context(viewport=PHONE)
        context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        browser_login(page, live_server, user)
        assert page.goto(live_server.url + path).status == 200, path
        fields = page.evaluate(MEASURE_JS)
        assert len(fields) >= 3, (path, fields)  # the check saw the form's fields
        wrong = [f for f in fields if f["labelBottom"] > f["top"] + 0.5 or f["width"] < 0.98]
        if wrong:
            bad[path] = wrong
        context.close()
    assert not bad, bad
