"""The set-password page (roster invitation, reset link) refuses a weak password in the page's
language: Django 5.2's zh_Hans catalog lacks the too-short error's new msgid, so a student who typed
"2026001" read "This password is too short…" in English among Chinese."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from accounts.services import roster_invite
from accounts.tests.test_password_reset import _link

WEAK = "2026001"  # the student's own number: short, numeric and the username


def _errors(lang: str) -> list[str]:
    user = get_user_model().objects.create_user("2026001", "zhangsan@example.edu")
    user.set_unusable_password()
    user.save()
    assert roster_invite(user)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    form_url = client.get(_link(mail.outbox[-1]))["Location"]
    page = client.post(form_url, {"new_password1": WEAK, "new_password2": WEAK})
    assert page.status_code == 200
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', page.content.decode(), re.S)
    return [
        re.sub(r"<[^>]+>", "", item) for block in lists for item in block.split("</li>") if item
    ]


@pytest.mark.django_db
def test_weak_password_errors_are_chinese_on_the_chinese_page() -> None:
    errors = _errors("zh-hans")
    assert errors == ["密码与用户名太相似。", "密码太短，至少需要 8 个字符。", "密码只包含数字。"]
    assert not any(re.search(r"[A-Za-z]", e) for e in errors), errors


@pytest.mark.django_db
def test_weak_password_errors_are_english_on_the_english_page() -> None:
    errors = _errors("en")
    assert errors == [
        "The password is too similar to the username.",
        "This password is too short. It must contain at least 8 characters.",
        "This password is entirely numeric.",
    ]
