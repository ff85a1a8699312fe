"""A score file that Python's csv module cannot read (a cell over its field limit of 131072
characters, in a row or in the header) was a server error. It is the import form's error in the
reader's language, the form is shown again with what was typed, and nothing is imported
(pdcsite.uploads.csv_text)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile

from gradebook.models import Grade, GradeItem

IMPORT = "/grades/staff/import/"
TOO_LONG = "9" * 131073  # characters: one over the csv module's field limit


def _upload(client, text: str, **fields):
    data = {"file": SimpleUploadedFile("scores.csv", text.encode(), content_type="text/csv")}
    return client.post(IMPORT, data | fields)


@pytest.mark.django_db
def test_a_long_points_cell_is_the_forms_error(client_ta, student_a, make_item) -> None:
    item = make_item("exam:mid", kind="exam")
    response = _upload(
        client_ta, f"student_id,points\nstudent_a,5\nstudent_b,{TOO_LONG}\n", item=item.pk
    )
    assert response.status_code == 400
    assert "第 3 行有单元格超过 131072 个字符。" in response.content.decode()
    assert not Grade.objects.exists()


@pytest.mark.django_db
def test_a_long_header_cell_keeps_the_new_item_fields(client_instructor, student_a) -> None:
    text = f"student_id,points,{TOO_LONG}\nstudent_a,5,x\n"
    response = _upload(
        client_instructor,
        text,
        new_key="exam:final",
        new_title="期末考试",
        new_max_points="100",
        new_category="exam",
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "第 1 行有单元格超过 131072 个字符。" in page
    assert 'value="exam:final"' in page and 'value="期末考试"' in page  # nothing typed is lost
    assert not GradeItem.objects.filter(key="exam:final").exists() and not Grade.objects.exists()


@pytest.mark.django_db
def test_the_error_is_english_on_an_english_page(client_ta, student_a, make_item) -> None:
    item = make_item("exam:mid", kind="exam")
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = _upload(client_ta, f"student_id,points\nstudent_a,{TOO_LONG}\n", item=item.pk)
    assert response.status_code == 400
    assert "Line 2 has a cell longer than 131072 characters." in response.content.decode()
