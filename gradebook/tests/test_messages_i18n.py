"""Gradebook errors a student meets are Chinese by default and English when English is chosen."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from gradebook.models import RegradeRequest
from gradebook.services import GradeError, regrade_request_create

NEW = "/grades/regrades/new/"


@pytest.mark.django_db
def test_a_second_open_regrade_request_is_refused_in_the_students_language(
    client_a, make_item
) -> None:
    item = make_item("lab:3", max_points=100)
    ask = {"item": item.key, "ref": "testref:123", "message": "第 2 个测试用例的容差判错了"}
    assert client_a.post(NEW, ask).status_code == 302
    chinese = client_a.post(NEW, ask)
    assert chinese.status_code == 400
    assert "你已有一个针对此项的待处理复核申请。" in chinese.content.decode()
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client_a.post(NEW, ask)
    assert english.status_code == 400
    page = english.content.decode()
    assert "You already have an open request for this." in page and "待处理复核申请" not in page
    assert RegradeRequest.objects.count() == 1


@pytest.mark.django_db
def test_an_empty_regrade_message_is_refused_in_the_active_language(student_a, make_item) -> None:
    item = make_item("lab:3")
    with pytest.raises(GradeError) as chinese:
        regrade_request_create(student=student_a, item=item, message="  ")
    assert str(chinese.value) == "请填写需要复核的内容。"
    with translation.override("en"), pytest.raises(GradeError) as english:
        regrade_request_create(student=student_a, item=item, message="  ")
    assert str(english.value) == "Say what should be looked at again."
