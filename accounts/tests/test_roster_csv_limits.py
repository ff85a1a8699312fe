"""A roster that Python's csv module cannot read (a cell over its field limit of 131072
characters; a stray carriage return) was a server error at upload and a traceback from
``manage.py import_roster``. It is the upload form's error in the reader's language, and the
command's clear message with a non-zero exit; nothing is stored (pdcsite.uploads.csv_text)."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command

pytestmark = pytest.mark.django_db

UPLOAD = "/accounts/staff/roster/upload/"
HEADER = "student_id,name,email,role\n"
LONG = HEADER + "new1," + "n" * 131073 + ",new1@example.edu,student\n"  # 128 KiB + 1 characters


def _file(text: str) -> SimpleUploadedFile:
    return SimpleUploadedFile("list.csv", text.encode(), content_type="text/csv")


def test_a_cell_over_the_csv_field_limit_is_the_forms_error(client_instructor) -> None:
    response = client_instructor.post(UPLOAD, {"file": _file(LONG)})
    page = response.content.decode()
    assert response.status_code == 400
    assert "第 2 行有单元格超过 131072 个字符。" in page
    assert 'name="payload"' not in page and 'name="file"' in page  # no preview; the form again
    assert not get_user_model().objects.filter(username="new1").exists()


def test_the_error_is_english_on_an_english_page(client_instructor) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client_instructor.post(UPLOAD, {"file": _file(LONG)})
    assert response.status_code == 400
    assert "Line 2 has a cell longer than 131072 characters." in response.content.decode()


def test_a_long_header_cell_is_refused_on_line_1(client_instructor) -> None:
    text = "student_id,name,email,role," + "h" * 131073 + "\nnew1,N,new1@example.edu,student,\n"
    response = client_instructor.post(UPLOAD, {"file": _file(text)})
    assert response.status_code == 400
    assert "第 1 行有单元格超过 131072 个字符。" in response.content.decode()


def test_a_file_with_old_mac_line_ends_previews(client_instructor) -> None:
    """Lines ended by a lone CR (classic Mac spreadsheets) were csv.Error "new-line character seen
    in unquoted field": the reader now splits lines as the csv module asks (newline="")."""
    text = HEADER.replace("\n", "\r") + "new1,Name,new1@example.edu,student\r"
    response = client_instructor.post(UPLOAD, {"file": _file(text)})
    payload = re.search(r'name="payload" value="([^"]+)"', response.content.decode())
    assert response.status_code == 200 and payload
    done = client_instructor.post("/accounts/staff/roster/confirm/", {"payload": payload[1]})
    assert done.status_code == 302 and get_user_model().objects.filter(username="new1").exists()


def test_the_command_refuses_the_file_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(LONG, encoding="utf-8")
    with pytest.raises(CommandError, match="Line 2 has a cell longer than 131072 characters"):
        call_command("import_roster", path, "--no-invite")
    assert not get_user_model().objects.filter(username="new1").exists()


def test_any_other_csv_error_is_the_forms_error_too(client_instructor, monkeypatch) -> None:
    """No other csv.Error is known to reach the default dialect read with newline=""; should one
    come (a new Python), it is the form's error with its line, not a server error."""

    class Failing:
        line_num = 3

        def __init__(self, *args, **kwargs) -> None: ...

        def __iter__(self) -> Failing:
            return self

        def __next__(self) -> list[str]:
            raise csv.Error("something new")

    monkeypatch.setattr(csv, "reader", Failing)
    response = client_instructor.post(UPLOAD, {"file": _file(HEADER)})
    assert response.status_code == 400 and "第 3 行不是有效的 CSV。" in response.content.decode()
