"""A student's own CSV speaks the reader's language: translated headers and status labels, never
the status codes (`not_started`, `released`) the staff files and the API use."""

from __future__ import annotations

import csv
import io

import pytest
from django.conf import settings


def _my_csv(client) -> list[list[str]]:
    body = client.get("/grades/mine.csv").content.decode("utf-8")
    assert body.startswith("\ufeff")  # spreadsheet programs read the file as UTF-8
    return list(csv.reader(io.StringIO(body.removeprefix("\ufeff"))))


@pytest.fixture
def items(student_a, make_item, post) -> None:
    post(student_a, make_item("quiz:1", title="测验一"), 7, source="quiz")
    make_item("exam:mid", title="期中考试")  # nothing submitted: not started


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("lang", "headers", "not_started", "released"),
    [
        ("zh-hans", ["成绩项", "满分", "状态", "得分"], "未开始", "已发布"),
        ("en", ["Grade item", "Max points", "Status", "Points"], "Not started", "Released"),
    ],
)
def test_headers_and_statuses_in_the_readers_language(
    client_a, items, lang, headers, not_started, released
) -> None:
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    rows = _my_csv(client_a)
    header, body = rows[0], rows[1:]
    assert set(headers) <= set(header)
    status = {row[header.index(headers[0])]: row[header.index(headers[2])] for row in body[:-1]}
    assert status == {"测验一": released, "期中考试": not_started}
    cells = {cell for row in rows for cell in row}
    assert not cells & {"not_started", "released", "status", "title", "max_points", "total %"}
