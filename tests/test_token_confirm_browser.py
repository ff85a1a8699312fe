"""The profile's API tokens in Chromium: revoking one, or making a new one (which revokes the
old), asks first, and cancelling keeps the token working; the profile links the API docs.

Both buttons used to act on one click: a student who tapped 吊销 by mistake had a CLI that
stopped submitting with no warning."""

from __future__ import annotations

import pytest

from accounts.models import ApiToken
from accounts.services import api_token_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _answer(page, accept: bool) -> list[str]:
    asked: list[str] = []

    def handle(dialog) -> None:
        asked.append(dialog.message)
        dialog.accept() if accept else dialog.dismiss()

    page.once("dialog", handle)
    return asked


def test_revoke_and_renew_ask_first(live_server, _browser, login, student_a) -> None:
    api_token_create(user=student_a, label="laptop")
    context = _browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    login(page, "student_a")
    page.goto(f"{live_server.url}/accounts/profile/")

    asked = _answer(page, accept=False)
    page.click("table.tokens button[type=submit]")
    page.wait_for_timeout(300)  # a submit that was not cancelled would navigate meanwhile
    assert asked and "laptop" in asked[0]
    assert ApiToken.objects.filter(user=student_a, revoked_at__isnull=True).count() == 1

    asked = _answer(page, accept=False)
    page.click("form[action$='/profile/token/'] button")
    page.wait_for_timeout(300)
    assert asked and "失效" in asked[0]
    assert ApiToken.objects.filter(user=student_a, revoked_at__isnull=True).count() == 1

    asked = _answer(page, accept=True)
    with page.expect_navigation():
        page.click("table.tokens button[type=submit]")
    assert asked and not ApiToken.objects.filter(user=student_a, revoked_at__isnull=True).exists()

    page.click("#api-docs-link")
    page.wait_for_load_state()
    assert page.url.endswith("/api/docs/")
    context.close()
