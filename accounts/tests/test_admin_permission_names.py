"""The permission pickers of the group and user admin name each permission in the page's language.

Django stores a permission's name once, at migrate time: "Can add" in English around our Chinese
model name ("Can add 讲义"), and our own permissions were English sentences, so both pickers read
half in each language. accounts.admin.permission_label names them from the model instead."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

pytestmark = pytest.mark.django_db
CJK = re.compile(r"[\u4e00-\u9fff]")
OURS = ("讲义", "测验", "实验", "成绩", "账户", "Lectures", "Quizzes", "Lab", "Grades", "Accounts")


class _Options(HTMLParser):
    def __init__(self, select_id: str) -> None:
        super().__init__()
        self.select_id, self.inside, self.texts = select_id, False, []

    def handle_starttag(self, tag, attrs) -> None:
        if tag == "select":
            self.inside = dict(attrs).get("id") == self.select_id
        elif tag == "option" and self.inside:
            self.texts.append("")

    def handle_endtag(self, tag) -> None:
        if tag == "select":
            self.inside = False

    def handle_data(self, data) -> None:
        if self.inside and self.texts:
            self.texts[-1] += data


def _options(client, url: str, select_id: str) -> list[str]:
    parser = _Options(select_id)
    parser.feed(client.get(url).content.decode())
    return [t.strip() for t in parser.texts]


@pytest.fixture
def root(client):
    user = get_user_model().objects.create_superuser("root_p", "r@example.com", "pw-test-12345")
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("url", "select_id"),
    [("/admin/auth/group/add/", "id_permissions"), ("user", "id_user_permissions")],
)
def test_permissions_are_named_in_the_page_language(root, url, select_id) -> None:
    if url == "user":
        url = f"/admin/auth/user/{get_user_model().objects.get(username='root_p').pk}/change/"
    chinese = _options(root, url, select_id)
    ours = [t for t in chinese if t.split(" | ")[0] in OURS]
    assert len(ours) > 40, chinese[:5]
    assert not any("Can " in t for t in ours), [t for t in ours if "Can " in t][:5]
    assert "实验 | 可以标记或取消标记提交" in chinese
    assert "讲义 | 可以修改小节" in chinese or any(t.startswith("讲义 | 可以修改") for t in chinese)

    root.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _options(root, url, select_id)
    ours = [t for t in english if t.split(" | ")[0] in OURS]
    assert len(ours) > 40 and not any(CJK.search(t) for t in ours), [
        t for t in ours if CJK.search(t)
    ][:5]
    assert "Lab | Can flag or unflag submissions" in english


def test_a_role_group_page_names_them_too(root) -> None:
    group, _ = Group.objects.get_or_create(name="ta")
    root.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _options(root, f"/admin/auth/group/{group.pk}/change/", "id_permissions")
    assert "Lab | Can flag or unflag submissions" in english
