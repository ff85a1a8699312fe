"""The roster invitation in English names the course in English and counts its days in English:
it said "for the course “并行与分布式计算（AI 方向）”" and "valid for 1 days"."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.utils import translation

from accounts.services import roster_invite

pytestmark = pytest.mark.django_db


def _invite(lang: str, settings, days: int) -> mail.EmailMessage:
    settings.PASSWORD_RESET_TIMEOUT = days * 86400
    user = get_user_model().objects.create_user(f"s{lang}{days}", f"s{lang}{days}@example.edu")
    with translation.override(lang):
        assert roster_invite(user)
    return mail.outbox[-1]


def test_english_invitation(settings) -> None:
    one = _invite("en", settings, 1)
    assert "valid for 1 day," in one.body and "并行" not in one.body + one.subject
    assert "Parallel and Distributed Computing" in one.subject
    assert "valid for 3 days," in _invite("en", settings, 3).body


def test_chinese_invitation(settings) -> None:
    message = _invite("zh-hans", settings, 1)
    assert "1 天内有效" in message.body and "《并行与分布式计算（AI 方向）》" in message.body
