"""The roster preview's last column names what importing each row does, as a label: in English
"new", "updated" and "unchanged" stood in lower case beside "Demotion: TA → Student"."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

pytestmark = pytest.mark.django_db

ROWS = (
    "student_id,name,email,role\n"
    "instructor,instructor,instructor@example.edu,instructor\n"  # unchanged
    "student_a,Renamed,student_a@example.edu,student\n"  # updated
    "ta,ta,ta@example.edu,student\n"  # a demotion
    "newcomer,New Comer,newcomer@example.edu,student\n"  # new
)


def _after_column(client) -> dict[str, str]:
    file = SimpleUploadedFile("list.csv", ROWS.encode(), content_type="text/csv")
    page = client.post("/accounts/staff/roster/upload/", {"file": file}).content.decode()
    rows = re.findall(r'<tr class="(\w+)">(.*?)</tr>', page, re.S)
    # Each row's kind (its class) and the text of its last cell, "导入后" / "After import".
    last = {kind: cells.rsplit("<td", 1)[1].split(">", 1)[1] for kind, cells in rows}
    return {kind: re.sub(r"<[^>]+>", "", cell) for kind, cell in last.items()}


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        ("en", {"unchanged": "Unchanged", "changed": "Updated", "demoted": "Demotion: TA → Student",
                "new": "New"}),
        ("zh-hans", {"unchanged": "不变", "changed": "更新", "demoted": "降级：助教 → 学生",
                     "new": "新增"}),
    ],
)  # fmt: skip
def test_each_row_kind_reads_as_a_label(client_instructor, student_a, ta, lang, expected) -> None:
    client_instructor.cookies["django_language"] = lang
    assert _after_column(client_instructor) == expected
