"""In real Chromium at 390x844, in Chinese and English: the roster preview's confirm row reads as
a choice, then the buttons. The invitation checkbox, its label, 确认导入 and 取消 ran on as one
line of text, so on a phone the button sat in the middle of the wrapped label ("… without a
password yet [Confirm import] Cancel"); the label now has its line and the buttons theirs below."""

from __future__ import annotations

import pytest

from accounts.services import user_create_with_role
from conftest import browser_login
from tests.phonecards import PHONE
from tests.test_roster_browser import GOOD, HEADER, _upload

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

BOXES_JS = """() => {
  const box = (sel) => document.querySelector(sel).getBoundingClientRect();
  const label = box('#roster-confirm label'), button = box('#roster-confirm button[type=submit]');
  return {labelBottom: label.bottom, buttonTop: button.top, buttonLeft: button.left,
          formLeft: box('#roster-confirm').left};
}"""


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_confirm_button_is_below_the_invitation_choice(_browser, live_server, lang) -> None:
    user_create_with_role(username="prof", password="pw-test-12345", role="instructor")
    context = _browser.new_context(viewport=PHONE)
    context.set_default_timeout(15_000)  # ms; generous for 2 loaded cores
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    try:
        page = context.new_page()
        browser_login(page, live_server, "prof", "pw-test-12345")
        page.goto(f"{live_server.url}/accounts/staff/roster/")
        _upload(page, HEADER + GOOD)
        page.wait_for_selector("#roster-preview")
        boxes = page.evaluate(BOXES_JS)
        assert boxes["buttonTop"] >= boxes["labelBottom"], boxes
        assert abs(boxes["buttonLeft"] - boxes["formLeft"]) < 2, boxes  # starts its own line
    finally:
        context.close()
