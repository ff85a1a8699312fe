"""In real Chromium at 390 px: the forms Django renders field by field (`_post_form.html`) read
like the sign-in page, each label above its field and each text field as wide as the form.

Before, `as_div` put a label and a narrow box on one line ("Old password: [____]"), and the
password rules stood between "New password:" and its box. The staff forms (a new question, a
quiz's settings, a student's override and extension) listed their fields by hand in `<p>`s under
another class, and printed a form-wide error twice (`non_field_errors`, then `as_p` again); they
now render `as_div` in the same stacked form."""

from __future__ import annotations

import pytest

from conftest import browser_login
from quizzes.tests.factories import quiz_with
from tests.phonecards import PHONE

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Per text field of the page's stacked forms: its label's bottom and its own top (px), and its
# width as a fraction of its form's content box.
MEASURE_JS = """() => [...document.querySelectorAll('main form.stack')].flatMap(form => {
  const style = getComputedStyle(form);  // its content box: some forms are padded cards
  const inner = form.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const fields = form.querySelectorAll(
    ':scope > div > :is(input:not([type=checkbox],[type=radio],[type=file],[type=hidden]), select, textarea)');
  return [...fields].map(f => {
    const label = form.querySelector(`label[for="${f.id}"]`).getBoundingClientRect();
    const box = f.getBoundingClientRect();
    return {id: f.id, labelBottom: label.bottom, top: box.top,
            width: box.width / inner};
  });
})"""

# (user, path, how many text fields the page's stacked forms hold at least)
PAGES = [
    ("student_a", "/accounts/password/", 3),
    ("instructor", "/grades/staff/import/", 3),
    # Staff forms that once listed their fields by hand, each field in a <p>.
    ("instructor", "/quizzes/staff/bank/new/", 10),
    ("instructor", "/grades/staff/students/{student_a}/", 10),  # override, extension, excuse …
    ("instructor", "/quizzes/staff/quiz-one/", 10),  # the quiz's settings
]

# Per checkbox row of the page's stacked forms: the vertical distance (px) between the centres of
# the label and the box, and whether the row's help text starts below both.
CHECKBOX_JS = """() => [...document.querySelectorAll('main form.stack > div:has(> input[type=checkbox])')]
  .map(row => {
    const mid = r => (r.top + r.bottom) / 2;
    const label = row.querySelector(':scope > label').getBoundingClientRect();
    const box = row.querySelector(':scope > input[type=checkbox]').getBoundingClientRect();
    const help = row.querySelector(':scope > .helptext');
    return {id: row.querySelector('input').id, apart: Math.abs(mid(label) - mid(box)),
            helpBelow: !help || help.getBoundingClientRect().top >= Math.max(label.bottom, box.bottom) - 0.5};
  })"""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_labels_stand_above_full_width_fields(live_server, _browser, student_a, instructor, lang):
    quiz_with([], slug="quiz-one", published=False)
    bad: dict[str, list[dict]] = {}
    checkboxes: list[dict] = []
    for user, path, least in PAGES:
        path = path.format(student_a=student_a.pk)
        context = _browser.new_context(viewport=PHONE)
        context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
        context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
        page = context.new_page()
        browser_login(page, live_server, user)
        assert page.goto(live_server.url + path).status == 200, path
        fields = page.evaluate(MEASURE_JS)
        assert len(fields) >= least, (path, fields)  # the check saw the forms' fields
        wrong = [f for f in fields if f["labelBottom"] > f["top"] + 0.5 or f["width"] < 0.98]
        if wrong:
            bad[path] = wrong
        checkboxes += page.evaluate(CHECKBOX_JS)
        context.close()
    assert not bad, bad
    assert len(checkboxes) >= 2, checkboxes  # the quiz's two shuffle settings
    assert all(c["apart"] < 4 and c["helpBelow"] for c in checkboxes), checkboxes
