"""The admin's login-throttling section (django-axes), where staff look up a locked-out student,
speaks the page's language: the package ships no Chinese and names its section "Axes" in English,
so every Chinese admin page of the site administrator showed it, and its lists were English."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import Client

from tests import crawl

PAGES = ["/admin/", "/admin/axes/", "/admin/axes/accessattempt/", "/admin/axes/accessfailurelog/"]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_lockout_admin_speaks_the_pages_language(lang: str, django_user_model) -> None:
    django_user_model.objects.create_user("student_x", password="right-password-1")
    # One failed login: an access attempt and a failure record to list.
    Client().post("/accounts/login/", {"username": "student_x", "password": "wrong"})
    root = django_user_model.objects.create_superuser("root", password="x")
    client = Client()
    client.force_login(root)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    # The test client's request has no user agent: axes records its own placeholder, data.
    data_words = {"root", "student_x", "unknown", "accounts", "login"}
    report = []
    for path in PAGES:
        response = client.get(path)
        assert response.status_code == 200, path
        page = crawl.parse(response.content.decode())
        report += [
            f"{path}: {p}" for p in crawl.problems(page, data_words=data_words, structure=False)
        ]
    assert report == [], "\n".join(report)
    heading = {"zh-hans": "登录限制", "en": "Login throttling"}[lang]
    assert heading in client.get("/admin/").content.decode()
