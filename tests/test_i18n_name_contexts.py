"""名称 is a title (of an item, a quiz) and also a worker's or an API token's name; 账户 is the
admin's app (Accounts) and also the profile page's section about one's own account. English
pages read "Name" and "Account" where they mean those (tests/test_po_complete.py keeps one
translation per msgid: the second meaning has a context)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from accounts.models import ApiToken
from accounts.services import api_token_create
from gradinglab.models import WorkerNode


def _label(model, field: str) -> str:
    return str(model._meta.get_field(field).verbose_name)


def _headings(page: str, tag: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", h).strip() for h in re.findall(rf"<{tag}>(.*?)</{tag}>", page)]


def test_english_labels_follow_their_meaning() -> None:
    with translation.override("en"):
        assert _label(WorkerNode, "name") == "Name"
        assert _label(ApiToken, "label") == "Name"
        assert translation.gettext("名称") == "Title"  # an item's or a quiz's title
        assert translation.gettext("账户") == "Accounts"  # the admin's app
    with translation.override("zh-hans"):
        assert _label(WorkerNode, "name") == _label(ApiToken, "label") == "名称"


@pytest.mark.django_db
def test_worker_list_heads_its_column_name(client_instructor) -> None:
    WorkerNode.objects.create(name="gpu-h100-01", kind="h100", token_hash="t" * 64)
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/status/").content.decode()
    workers = page[page.index('id="status-workers"') :]
    assert "gpu-h100-01" in workers
    assert _headings(workers, "th")[0] == "Name"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "section", "column"), [("en", "Account", "Name"), ("zh-hans", "账户", "名称")]
)
def test_profile_reads_account_and_token_name(client_a, student_a, lang, section, column) -> None:
    api_token_create(user=student_a)
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client_a.get("/accounts/profile/").content.decode()
    assert section in _headings(page, "h2")
    tokens = page[page.index('<table class="tokens">') :]
    assert _headings(tokens, "th")[0] == column
