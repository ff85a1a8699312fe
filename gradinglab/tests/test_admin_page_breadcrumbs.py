"""The lab's custom admin pages (change score, rescore preview, the flag action's form, the worker
tokens) read Home › app › model › [object ›] page in their breadcrumbs, as Django's own pages under
a model do; they read "Home › <title>", a level or three skipped."""

from __future__ import annotations

import re

import pytest

from conftest import admin_action
from gradinglab.models import Submission, WorkerNode
from gradinglab.tests.labkit import make_assignment
from gradinglab.tests.test_override_scope import _graded

pytestmark = pytest.mark.django_db

LAB = "/admin/gradinglab/"


@pytest.fixture
def root(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    return client


@pytest.fixture
def sub(student_a) -> Submission:
    return _graded(make_assignment(title="向量加法实验"), student_a, ("10.00",))[0]


def _crumbs(response) -> tuple[list[str], str]:
    """The breadcrumbs' links, and the text after the last one (the page)."""
    assert response.status_code == 200
    found = re.search(r'<div class="breadcrumbs">(.*?)</div>', response.content.decode(), re.S)
    assert found, "no breadcrumbs"
    links = re.findall(r'href="([^"]+)"', found[1])
    last = re.sub(r"<[^>]*>", "", found[1].rsplit("</a>", 1)[-1]).replace("&rsaquo;", "").strip()
    return links, last


def test_the_change_score_page(root, sub) -> None:
    links, page = _crumbs(root.get(f"{LAB}submission/{sub.pk}/override/"))
    assert links == ["/admin/", LAB, f"{LAB}submission/", f"{LAB}submission/{sub.pk}/change/"]
    assert page == "改分"


def test_the_rescore_preview(root, sub) -> None:
    pk = sub.assignment.pk
    links, page = _crumbs(root.get(f"{LAB}assignment/{pk}/rescore/"))
    assert links == ["/admin/", LAB, f"{LAB}assignment/", f"{LAB}assignment/{pk}/change/"]
    assert page == "重新计分预览"


def test_the_flag_actions_form(root, sub) -> None:
    links, page = _crumbs(admin_action(root, f"{LAB}submission/", "flag_selected", sub))
    assert links == ["/admin/", LAB, f"{LAB}submission/"] and page == "标记所选提交"


def test_the_worker_tokens_page(root) -> None:
    node = WorkerNode.objects.create(name="gpu-a", kind="h100")
    links, page = _crumbs(admin_action(root, f"{LAB}workernode/", "rotate_tokens", node))
    assert links == ["/admin/", LAB, f"{LAB}workernode/"] and page == "评测机令牌"
