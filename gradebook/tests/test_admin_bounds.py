"""The admin said "Constraint “gradeitem_max_points_positive” is violated." for a maximum of -5: the
bounds of the gradebook's CheckConstraints are the fields' validators now, said at the field in the
page's language (the constraints stay for every other writer)."""

from __future__ import annotations

import pytest

from conftest import admin_form_errors
from gradebook.models import Category, GradeItem

ITEM = {
    "key": "exam:mid",
    "title": "期中",
    "title_en": "",
    "kind": "exam",
    "category": "exam",
    "max_points": "10",
    "weight": "1",
    "due_at_0": "",
    "due_at_1": "",
    "late_policy": "none",
    "late_penalty_per_day": "10",
    "late_penalty_cap": "100",
}
CASES = [
    ("max_points", "-5", "满分至少为 0.01 分。", "The maximum must be at least 0.01 points."),
    ("max_points", "0", "满分至少为 0.01 分。", "The maximum must be at least 0.01 points."),
    ("late_penalty_per_day", "-1", "不能小于 0%。", "Cannot be less than 0%."),
    ("late_penalty_cap", "150", "不能超过 100%。", "Cannot be more than 100%."),
]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("field,value,zh,en", CASES)
def test_admin_item_bounds_are_said_at_the_field(
    client_instructor, lang, field, value, zh, en
) -> None:
    errors = admin_form_errors(
        client_instructor, "/admin/gradebook/gradeitem/add/", ITEM | {field: value}, lang
    )
    assert errors == {field: [zh if lang == "zh-hans" else en]}
    assert not GradeItem.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_admin_category_weight_is_a_percentage(admin_client, lang) -> None:
    data = {"key": "project", "title": "项目", "weight": "120", "drop_lowest": "0", "position": "4"}
    errors = admin_form_errors(admin_client, "/admin/gradebook/category/add/", data, lang)
    assert errors == {
        "weight": ["不能超过 100%。" if lang == "zh-hans" else "Cannot be more than 100%."]
    }
    assert not Category.objects.filter(key="project").exists()


@pytest.mark.django_db
def test_admin_saves_an_item_within_the_bounds(client_instructor) -> None:
    response = client_instructor.post("/admin/gradebook/gradeitem/add/", ITEM)
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert GradeItem.objects.get().max_points == 10


def test_extension_without_date_or_days_is_refused_at_the_field() -> None:
    from django.core.exceptions import ValidationError

    from gradebook.models import Extension

    with pytest.raises(ValidationError) as refused:
        Extension().clean()
    assert list(refused.value.message_dict) == ["extra_days"]
