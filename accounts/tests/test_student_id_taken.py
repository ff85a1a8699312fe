"""A student ID (学号) is unique: an instructor who types one that is taken into a student's
profile in the admin is told so at the field, in the page's language, and what to do. The admin
said Django's default ("学生档案 with this Student ID already exists.", "已有学号相同的学生档案。")."""

from __future__ import annotations

import pytest

from accounts.models import Profile
from conftest import admin_form_errors

pytestmark = pytest.mark.django_db

TAKEN = {
    "zh-hans": "这个学号已属于另一名用户。请核对学号：一个学生只需一个账户。",
    "en": "This student ID already belongs to another user. Check the number: a student needs only "
    "one account.",
}


@pytest.mark.parametrize("lang", sorted(TAKEN))
def test_a_taken_student_id_is_said_at_the_field(
    client_instructor, student_a, student_b, lang: str
) -> None:
    first, second = Profile.objects.get(user=student_a), Profile.objects.get(user=student_b)
    kept = second.student_id
    data = {"user": student_b.pk, "student_id": first.student_id, "display_name": "乙"}
    url = f"/admin/accounts/profile/{second.pk}/change/"
    errors = admin_form_errors(client_instructor, url, data, lang)
    assert errors == {"student_id": [TAKEN[lang]]}
    second.refresh_from_db()
    assert second.student_id == kept != first.student_id
