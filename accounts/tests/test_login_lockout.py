"""Must hold 5 (lockout): wrong passwords lock a username+address out of the site login, the admin
login and — for wrong tokens — the token APIs; the right password then no longer gets in.

Before django-axes, 30 wrong passwords followed by the right one logged straight in.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from accounts.services import api_token_create
from conftest import TEST_PASSWORD
from gradinglab.services.workers import worker_token_create

LIMIT = 5  # settings.AXES_FAILURE_LIMIT's default


@pytest.fixture(autouse=True)
def _clean_counters() -> Iterator[None]:
    cache.clear()  # token failure counters live in the cache
    yield
    cache.clear()


def _fail(client: Client, url: str, username: str, times: int) -> list[int]:
    return [
        client.post(url, {"username": username, "password": "wrong-guess"}).status_code
        for _ in range(times)
    ]


@pytest.mark.django_db
def test_site_login_locks_after_the_limit_with_a_clear_message(student_a, student_b) -> None:
    client = Client()
    url = reverse("accounts:login")
    codes = _fail(client, url, "student_a", LIMIT)
    assert codes[:-1] == [200] * (LIMIT - 1) and codes[-1] == 429
    right = client.post(url, {"username": "student_a", "password": TEST_PASSWORD})
    assert right.status_code == 429
    assert "_auth_user_id" not in client.session
    assert "密码错误次数过多" in right.content.decode() and "15 分钟" in right.content.decode()
    # Another account from the same address (a classroom behind one NAT) is not locked out.
    other = client.post(url, {"username": "student_b", "password": TEST_PASSWORD})
    assert other.status_code == 302 and other["Location"] == "/"


@pytest.mark.django_db
def test_lockout_message_is_translated(student_a) -> None:
    client = Client()
    client.cookies["django_language"] = "en"
    url = reverse("accounts:login")
    _fail(client, url, "student_a", LIMIT)
    page = client.post(url, {"username": "student_a", "password": TEST_PASSWORD}).content.decode()
    assert "Too many wrong passwords" in page and "15 minutes" in page
    assert "Set a new one by email</a>; you can sign in as soon as it is set." in page
    assert "密码错误次数过多" not in page and "用邮箱设置新密码" not in page


@pytest.mark.django_db
def test_admin_login_locks_too(instructor) -> None:
    instructor.is_staff = True
    instructor.save(update_fields=["is_staff"])
    client = Client()
    url = reverse("admin:login")
    _fail(client, url, "instructor", LIMIT)
    right = client.post(url, {"username": "instructor", "password": TEST_PASSWORD})
    assert right.status_code == 429
    assert client.get(reverse("admin:index")).status_code == 302  # still not signed in


@pytest.mark.django_db
@override_settings(PDC_TOKEN_FAILURE_LIMIT=3)
def test_wrong_student_tokens_are_refused_but_a_valid_one_still_works(student_a) -> None:
    # Before, a guesser's wrong tokens locked out every valid token from the same address (a
    # classroom NAT) too, and each new failure restarted the 15 minutes.
    client = Client()
    raw = api_token_create(user=student_a)
    url = reverse("api:submission_detail", args=[999999])
    wrong = [
        client.get(url, HTTP_AUTHORIZATION="Token pdc_not-a-real-token").status_code
        for _ in range(4)
    ]
    assert wrong == [401, 401, 401, 429]
    locked = client.get(url, HTTP_AUTHORIZATION="Token pdc_not-a-real-token")
    assert locked.status_code == 429 and "Retry-After" in locked
    assert client.get(url, HTTP_AUTHORIZATION=f"Token {raw}").status_code == 404  # gets in


@pytest.mark.django_db
@override_settings(PDC_TOKEN_FAILURE_LIMIT=3)
def test_wrong_worker_tokens_are_refused_but_a_valid_worker_still_reports() -> None:
    client = Client()
    raw = worker_token_create(name="lockout-cpu", kind="cpu")
    url = reverse("api:worker_phase")

    def post(token: str) -> int:
        auth = f"Worker {token}"
        return client.post(url, "{}", content_type="application/json", HTTP_AUTHORIZATION=auth)

    assert [post("wrk_guess").status_code for _ in range(4)] == [401, 401, 401, 429]
    assert post("two parts").status_code == 429  # a malformed one is a wrong one too
    assert post(raw).status_code == 400  # authenticated; the empty body is refused


@pytest.mark.django_db
@override_settings(PDC_TOKEN_FAILURE_LIMIT=1, PDC_TRUSTED_PROXY_COUNT=1)
def test_token_failures_are_counted_per_client_address() -> None:
    url = reverse("api:worker_phase")
    for ip, codes in (("203.0.113.7", [401, 429]), ("203.0.113.8", [401])):
        got = [
            Client(HTTP_X_FORWARDED_FOR=ip)
            .post(url, "{}", content_type="application/json", HTTP_AUTHORIZATION="Worker wrk_x")
            .status_code
            for _ in codes
        ]
        assert got == codes


@pytest.mark.django_db
def test_any_new_password_lifts_the_lock(student_a) -> None:
    # The hook sits where Django reports every password change (admin, shell, reset, change page).
    client = Client()
    url = reverse("accounts:login")
    assert _fail(client, url, "student_a", LIMIT)[-1] == 429
    student_a.set_password("A-brand-new-one-2026")
    student_a.save()
    right = client.post(url, {"username": "student_a", "password": "A-brand-new-one-2026"})
    assert right.status_code == 302 and right["Location"] == "/"
