"""An item key staff type, in the admin or as the CSV import's new item, is ASCII lower case,
digits and ":_-" (gradebook.models.ITEM_KEY, one rule for both). The admin took any text: a key
like "lab:²" passed str.isdigit() in the apps' "lab:<id>" reading and broke int() (a 500 on every
extension of it, fixed there too), and "Exam Final" made an item no URL names well."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from conftest import admin_form_errors
from gradebook.models import GradeItem
from gradebook.tests.test_admin_bounds import ITEM

pytestmark = pytest.mark.django_db

SAID = {
    "zh-hans": "标识只能用小写英文字母、数字和 : _ -，以字母或数字开头，如 exam:final。",
    "en": "A key takes lower-case letters, digits and : _ - only, and starts with a letter or a "
    "digit, such as exam:final.",
}


@pytest.mark.parametrize("lang", sorted(SAID))
@pytest.mark.parametrize("key", ["lab:²", "Exam:final", "exam final", ":x", "exam:\u0661"])
def test_the_admin_refuses_a_key_outside_the_rule(client_instructor, lang, key) -> None:
    errors = admin_form_errors(
        client_instructor, "/admin/gradebook/gradeitem/add/", ITEM | {"key": key}, lang
    )
    assert errors == {"key": [SAID[lang]]}
    assert not GradeItem.objects.exists()


def test_the_admin_takes_a_key_within_the_rule(client_instructor) -> None:
    response = client_instructor.post(
        "/admin/gradebook/gradeitem/add/", ITEM | {"key": "exam:a_1-b"}
    )
    assert response.status_code == 302 and GradeItem.objects.filter(key="exam:a_1-b").exists()


@pytest.mark.parametrize("lang", sorted(SAID))
def test_the_import_says_the_same_for_a_new_item(client_instructor, student_a, lang) -> None:
    client_instructor.cookies["django_language"] = lang
    csv_file = SimpleUploadedFile("s.csv", b"student_id,points\nstudent_a,5\n", "text/csv")
    response = client_instructor.post(
        "/grades/staff/import/",
        {"file": csv_file, "new_key": "lab:²", "new_title": "X", "new_max_points": "10"},
    )
    assert response.status_code == 400 and SAID[lang] in response.content.decode()
    assert not GradeItem.objects.exists()
