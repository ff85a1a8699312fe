"""The Chinese admin in Chinese where Django 5.2's zh_Hans catalogs lack a string: the group and
permission pickers said "Choose 权限 by selecting them and then select the "Choose" arrow button.",
the user add form "After you’ve created a user, you’ll be able to edit more user options."."""

from __future__ import annotations

import json

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


@pytest.fixture
def root(django_user_model) -> Client:
    client = Client()
    client.force_login(django_user_model.objects.create_superuser("root", "r@example.edu", "pw"))
    return client


def _catalog(client: Client) -> str:
    return client.get("/admin/jsi18n/").content.decode()


def _in(said: str, catalog: str) -> bool:
    """The catalog is JSON: non-ASCII is written as \\uXXXX escapes."""
    return json.dumps(said)[1:-1] in catalog


def test_the_pickers_strings_are_chinese(root) -> None:
    catalog = _catalog(root)
    for said in ("选中要选择的%s", "选中要移除的%s", "选择全部%s", "移除选中的%s", "（点击清除）"):
        assert _in(said, catalog), said
    root.cookies["django_language"] = "en"
    assert not _in("选中要选择的%s", _catalog(root))


def test_the_user_add_form_note_is_chinese(root) -> None:
    page = root.get("/admin/auth/user/add/").content.decode()
    assert "创建用户后，可以编辑更多用户选项。" in page and "After you" not in page
