"""The roster page's upload: a file holding a NUL character is refused at upload with the form's
error (pdcsite.uploads.csv_text). A name with one passed the preview and then failed the confirmed
import with a server error: PostgreSQL stores no NUL. The same file without it imports."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db

REFUSED = "文件含有空字符（NUL），不是文本 CSV。"


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("list.csv", text.encode(), content_type="text/csv")


def test_a_roster_with_a_nul_is_refused_at_upload_and_nothing_is_stored(client_instructor) -> None:
    text = "student_id,name,email,role\nnew1,Na\x00me,new1@example.edu,student\n"
    response = client_instructor.post("/accounts/staff/roster/upload/", {"file": _file(text)})
    assert response.status_code == 400 and REFUSED in response.content.decode()
    assert 'name="payload"' not in response.content.decode()  # no preview to confirm
    assert not get_user_model().objects.filter(username="new1").exists()


def test_the_same_roster_without_the_nul_previews_and_imports(client_instructor) -> None:
    text = "student_id,name,email,role\nnew1,Name,new1@example.edu,student\n"
    response = client_instructor.post("/accounts/staff/roster/upload/", {"file": _file(text)})
    payload = re.search(r'name="payload" value="([^"]+)"', response.content.decode())
    assert response.status_code == 200 and payload
    done = client_instructor.post("/accounts/staff/roster/confirm/", {"payload": payload[1]})
    assert done.status_code == 302 and get_user_model().objects.filter(username="new1").exists()


@pytest.mark.parametrize(
    ("cells", "error"),
    [
        ("new1,Name,new1@example.edu,student," + "x" * 65, "section 超过 64 个字符"),
        (
            "new1,Name," + "a" * 64 + "@" + ("b" * 60 + ".") * 4 + "edu,student,",
            "email 超过 254 个字符",
        ),
        ("new1," + "n" * 151 + ",new1@example.edu,student,", "name 超过 150 个字符"),
    ],
)
def test_a_value_longer_than_its_column_is_a_line_error_at_upload(
    client_instructor, cells: str, error: str
) -> None:
    """PostgreSQL refuses a value longer than its column: such a row passed the preview and then
    failed the import with a server error (SQLite keeps it, so only the real database showed it)."""
    text = "student_id,name,email,role,section\n" + cells + "\n"
    response = client_instructor.post("/accounts/staff/roster/upload/", {"file": _file(text)})
    assert response.status_code == 400
    assert f"第 2 行：{error}" in response.content.decode()
    assert not get_user_model().objects.filter(username="new1").exists()
