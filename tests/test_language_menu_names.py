"""The header's language menu names each language in itself (English, 简体中文), the common
convention: a Chinese page listed English as "英语", which a reader who cannot read Chinese does not
find. Each option says its language in `lang`, for screen readers and fonts."""

from __future__ import annotations

import re

import pytest
from django.conf import settings


def _options(client) -> dict[str, tuple[str, str]]:
    page = client.get("/accounts/login/").content.decode()  # the first page a visitor sees
    select = re.search(r'<select id="lang-select".*?</select>', page, re.S)
    assert select is not None
    found = re.findall(r'<option value="([^"]+)" lang="([^"]+)"[^>]*>([^<]+)</option>', select[0])
    return {code: (lang, name.strip()) for code, lang, name in found}


@pytest.mark.django_db
@pytest.mark.parametrize("page_language", ["zh-hans", "en"])
def test_each_language_is_named_in_itself(client, page_language) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = page_language
    assert _options(client) == {"zh-hans": ("zh-CN", "简体中文"), "en": ("en", "English")}
