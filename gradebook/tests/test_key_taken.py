"""A grade item's key and a category's key are unique: an instructor who types one that is taken
in the admin is told so at the field, in the page's language, and what to do. The admin said
Django's default ("Grade item with this Key already exists.", "已有标识相同的成绩项。")."""

from __future__ import annotations

import pytest

from conftest import admin_form_errors
from gradebook.models import Category, GradeItem
from gradebook.tests.test_admin_bounds import ITEM

pytestmark = pytest.mark.django_db

ITEM_TAKEN = {
    "zh-hans": "这个标识已被另一个成绩项使用。标识不能重复：请换一个，如 exam:2。",
    "en": "This key is already used by another grade item. Keys must be unique: choose another "
    "one, such as exam:2.",
}
CATEGORY_TAKEN = {
    "zh-hans": "这个类别标识已被另一个类别使用。请换一个，如 project。",
    "en": "This category key is already used by another category. Choose another one, such as "
    "project.",
}


@pytest.mark.parametrize("lang", sorted(ITEM_TAKEN))
def test_a_taken_item_key_is_said_at_the_key(client_instructor, lang: str) -> None:
    assert client_instructor.post("/admin/gradebook/gradeitem/add/", ITEM).status_code == 302
    errors = admin_form_errors(client_instructor, "/admin/gradebook/gradeitem/add/", ITEM, lang)
    assert errors == {"key": [ITEM_TAKEN[lang]]}
    assert GradeItem.objects.count() == 1


@pytest.mark.parametrize("lang", sorted(CATEGORY_TAKEN))
def test_a_taken_category_key_is_said_at_the_key(client_instructor, lang: str) -> None:
    Category.objects.get_or_create(key="lab", defaults={"title": "实验", "weight": "50"})
    data = {"key": "lab", "title": "实验二", "weight": "10", "drop_lowest": "0", "position": "4"}
    errors = admin_form_errors(client_instructor, "/admin/gradebook/category/add/", data, lang)
    assert errors == {"key": [CATEGORY_TAKEN[lang]]}
    assert not Category.objects.filter(title="实验二").exists()
