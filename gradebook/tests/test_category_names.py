"""A category is named in the page's language where the admin names it (breadcrumbs, the change
page's heading, its messages), as the staff gradebook pages name it: a built-in category (quiz,
lab, exam, other) by its translated name, one staff made by its title, which has no English
version. Category.__str__ took the Chinese title on English pages too."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import translation

from gradebook.models import Category

pytestmark = pytest.mark.django_db


def _heading(client, category: Category, lang: str) -> str:
    """The change page up to its form: the breadcrumbs and the heading that name the object."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    page = client.get(f"/admin/gradebook/category/{category.pk}/change/").content.decode()
    return page.split("<form")[0]


def test_a_built_in_category_is_named_in_the_pages_language(client_instructor) -> None:
    Category.objects.update_or_create(key="lab", defaults={"title": "实验", "weight": Decimal(50)})
    lab = Category.objects.get(key="lab")
    with translation.override("en"):
        assert str(lab) == "Lab (50.00%)"
    with translation.override("zh-hans"):
        assert str(lab) == "实验 (50.00%)"
    english = _heading(client_instructor, lab, "en")
    assert "Lab (50.00%)" in english and "实验" not in english
    assert "实验 (50.00%)" in _heading(client_instructor, lab, "zh-hans")


def test_a_category_staff_made_keeps_its_title(client_instructor) -> None:
    Category.objects.create(key="project", title="期末项目", weight=Decimal(10))
    project = Category.objects.get(key="project")
    with translation.override("en"):
        assert str(project) == "期末项目 (10.00%)"
    assert "期末项目 (10.00%)" in _heading(client_instructor, project, "en")


def test_the_category_list_names_built_in_ones_in_the_pages_language(client_instructor) -> None:
    """The list's name column showed the stored title, Chinese, on English pages."""
    Category.objects.update_or_create(key="lab", defaults={"title": "实验", "weight": Decimal(50)})
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/admin/gradebook/category/").content.decode()
    cells = re.findall(r'<td class="field-name">([^<]*)</td>', page)
    assert "Lab" in cells and "实验" not in cells, cells
