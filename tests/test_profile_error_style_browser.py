"""A refused leaderboard nickname says why in the site's error colour, as every other form error
does, in real Chromium: the message's only style was in the lab's stylesheet, so on the profile
page "this nickname is taken" read as plain black text under the field, like a note."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from accounts.services import user_create_with_role
from conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_taken_nickname_reads_as_an_error(live_server, browser_page) -> None:
    user_create_with_role(username="stu_nick", password="pw-test-12345", role="student")
    other = user_create_with_role(username="stu_other", password="pw-test-12345", role="student")
    Profile.objects.update_or_create(user=other, defaults={"pseudonym": "speedy"})
    page = browser_page
    browser_login(page, live_server, "stu_nick", "pw-test-12345")
    page.goto(f"{live_server.url}/accounts/profile/")
    page.fill("#id_pseudonym", "speedy")
    page.click("#pseudonym-form button[type=submit]")
    error = page.locator("#pseudonym-error")
    error.wait_for()
    colours = page.evaluate(
        """() => {
          const bad = document.createElement('span');
          bad.className = 'errorlist';
          document.body.appendChild(bad);
          const seen = [getComputedStyle(document.getElementById('pseudonym-error')).color,
                        getComputedStyle(bad).color,
                        getComputedStyle(document.querySelector('#pseudonym-form label')).color];
          bad.remove();
          return seen;
        }"""
    )
    message, form_error, plain = colours
    assert message == form_error != plain, colours
    assert page.input_value("#id_pseudonym") == "speedy"  # what was typed is kept
