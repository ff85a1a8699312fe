"""CLI tokens: created with POST-redirect-GET, listed and revoked in the profile, revoked by any
password change."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import api_token_create
from accounts.tests.kit import change_password


def _shown_token(html: str) -> str | None:
    marker = 'id="new-token">'
    if marker not in html:
        return None
    start = html.index(marker) + len(marker)
    return html[start : html.index("</code>", start)]


def _api_status(raw: str) -> int:
    return Client().get("/api/v1/submissions/1", HTTP_AUTHORIZATION=f"Token {raw}").status_code


@pytest.mark.django_db
def test_create_redirects_and_a_reload_neither_reposts_nor_shows_it_again(client_a, student_a):
    created = client_a.post(reverse("accounts:token_create"))
    assert created.status_code == 302 and created["Location"] == reverse("accounts:profile")
    first = client_a.get(created["Location"])
    raw = _shown_token(first.content.decode())
    assert raw and raw.startswith("pdc_")
    assert "no-store" in first["Cache-Control"]
    reload = client_a.get(reverse("accounts:profile"))
    assert _shown_token(reload.content.decode()) is None
    assert ApiToken.objects.filter(user=student_a).count() == 1
    assert ApiToken.objects.by_raw(raw) is not None


@pytest.mark.django_db
def test_profile_lists_tokens_and_revokes_only_ones_own(client_a, student_a, student_b):
    raw_a = api_token_create(user=student_a)
    raw_b = api_token_create(user=student_b)
    token_a = ApiToken.objects.by_raw(raw_a)
    token_b = ApiToken.objects.by_raw(raw_b)
    html = client_a.get(reverse("accounts:profile")).content.decode()
    assert reverse("accounts:token_revoke", args=[token_a.pk]) in html
    assert reverse("accounts:token_revoke", args=[token_b.pk]) not in html

    foreign = client_a.post(reverse("accounts:token_revoke", args=[token_b.pk]))
    assert foreign.status_code == 404 and ApiToken.objects.by_raw(raw_b) is not None
    assert client_a.get(reverse("accounts:token_revoke", args=[token_a.pk])).status_code == 405
    assert _api_status(raw_a) == 404  # authenticated; submission 1 does not exist
    own = client_a.post(reverse("accounts:token_revoke", args=[token_a.pk]))
    assert own.status_code == 302 and ApiToken.objects.by_raw(raw_a) is None
    assert _api_status(raw_a) == 401


@pytest.mark.django_db
def test_password_change_revokes_every_token(student_a):
    raw = api_token_create(user=student_a)
    client = Client()
    client.force_login(student_a)
    page = client.get(reverse("accounts:password_change")).content.decode()
    assert "全部命令行 API 令牌失效" in page  # said before it happens
    changed = change_password(client)
    assert changed.status_code == 302
    assert ApiToken.objects.by_raw(raw) is None and _api_status(raw) == 401


@pytest.mark.django_db
def test_a_password_set_anywhere_else_also_revokes(student_a):
    raw = api_token_create(user=student_a)
    student_a.set_password("admin-set-Passw0rd")  # the admin and `changepassword` do this
    student_a.save()
    assert ApiToken.objects.by_raw(raw) is None


@pytest.mark.django_db
def test_the_new_token_follows_its_label_after_a_colon_and_a_space(client_a, settings):
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    client_a.post(reverse("accounts:token_create"))
    html = client_a.get(reverse("accounts:profile")).content.decode()
    assert 'New token (copy it now): <code id="new-token">pdc_' in html


@pytest.mark.django_db
def test_the_admin_offers_no_token_add_form(django_user_model, student_a) -> None:
    """Its every field but revoked_at was read-only, so a save there was a 500 (a token with no
    user); tokens are made on the profile page, where their value is shown once."""
    root = Client()
    root.force_login(django_user_model.objects.create_superuser("root", "r@example.edu", "pw"))
    assert root.get("/admin/accounts/apitoken/add/").status_code == 403
    assert root.post("/admin/accounts/apitoken/add/", {"revoked_at_0": ""}).status_code == 403
    assert not ApiToken.objects.exists()
    api_token_create(user=student_a)
    token = ApiToken.objects.get()
    assert root.get(f"/admin/accounts/apitoken/{token.pk}/change/").status_code == 200
