import pytest
from django.urls import reverse

from accounts.models import ApiToken
from accounts.tests.kit import change_password
from conftest import TEST_PASSWORD


@pytest.mark.django_db
def test_login_logout_and_password_change(client, student_a) -> None:
    page = client.get(reverse("accounts:login"))
    assert page.status_code == 200 and "登录" in page.content.decode()
    bad = client.post(reverse("accounts:login"), {"username": "student_a", "password": "wrong"})
    assert bad.status_code == 200 and "用户名或密码不正确" in bad.content.decode()
    ok = client.post(
        reverse("accounts:login"), {"username": "student_a", "password": TEST_PASSWORD}
    )
    assert ok.status_code == 302 and ok["Location"] == "/"
    changed = change_password(client)
    assert changed.status_code == 302
    client.post(reverse("accounts:logout"))
    assert client.get("/").status_code == 302  # home needs login again
    assert client.login(username="student_a", password="n3w-Passw0rd-xyz")


@pytest.mark.django_db
def test_home_requires_login(client) -> None:
    response = client.get("/")
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


@pytest.mark.django_db
def test_token_is_shown_once_and_only_its_hash_stored(client_a, student_a) -> None:
    response = client_a.post(reverse("accounts:token_create"), follow=True)
    html = response.content.decode()
    start = html.index('id="new-token">') + len('id="new-token">')
    raw = html[start : html.index("</code>", start)]
    assert raw.startswith("pdc_") and len(raw) > 30
    token = ApiToken.objects.get(user=student_a, revoked_at__isnull=True)
    assert token.key_hash == ApiToken.hash(raw) and raw not in token.key_hash
    client_a.post(reverse("accounts:token_create"))
    assert ApiToken.objects.filter(user=student_a, revoked_at__isnull=True).count() == 1
    assert ApiToken.objects.by_raw(raw) is None  # the old token was revoked


@pytest.mark.django_db
def test_student_sets_a_unique_leaderboard_nickname(client_a, client_b, student_a) -> None:
    page = client_a.get("/accounts/profile/").content.decode()
    assert 'name="pseudonym"' in page and "学生" in page  # the role by its label
    assert (
        client_a.post("/accounts/profile/pseudonym/", {"pseudonym": "  Warp  Speed "}).status_code
        == 302
    )
    student_a.profile.refresh_from_db()
    assert student_a.profile.pseudonym == "Warp Speed"
    taken = client_b.post("/accounts/profile/pseudonym/", {"pseudonym": "warp speed"})
    assert taken.status_code == 400 and "已被别人使用" in taken.content.decode()
    too_long = client_b.post("/accounts/profile/pseudonym/", {"pseudonym": "x" * 41})
    assert too_long.status_code == 400
    assert client_a.post("/accounts/profile/pseudonym/", {"pseudonym": ""}).status_code == 302
    student_a.profile.refresh_from_db()
    assert student_a.profile.pseudonym == ""
