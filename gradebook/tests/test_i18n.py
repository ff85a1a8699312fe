"""The gradebook pages speak English when the user picks English (compiled from gradebook's .po)."""

from __future__ import annotations

import pytest
from django.conf import settings


@pytest.mark.django_db
def test_student_page_in_english(client_a, make_item, post, student_a) -> None:
    post(student_a, make_item("quiz:1"), 7, source="quiz")
    chinese = client_a.get("/grades/").content.decode()
    assert "我的成绩" in chinese and "课程总评" in chinese
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client_a.get("/grades/").content.decode()
    assert "My grades" in english and "Course total" in english and "Grace days:" in english
    assert "我的成绩" not in english
