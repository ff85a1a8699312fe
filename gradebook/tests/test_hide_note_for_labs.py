"""Hiding a lab item's scores hides them in the gradebook only; the lab's submission pages keep
each autograded score (immediate feedback), and the release control says so, for lab items only."""

from __future__ import annotations

import pytest
from django.conf import settings

NOTE = {
    "zh-hans": "隐藏成绩只影响成绩册：实验的提交页面仍会显示每次提交的自动评分。",
    "en": "Hiding scores affects the gradebook only: the lab's submission pages keep showing "
    "each submission's autograded score.",
}


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_note_is_beside_a_lab_items_release_control(client_instructor, make_item, lang) -> None:
    lab, quiz = make_item("lab:3", title="实验：向量加法"), make_item("quiz:1", title="测验一")
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    assert NOTE[lang] in client_instructor.get(f"/grades/staff/items/{lab.pk}/").content.decode()
    assert (
        NOTE[lang] not in client_instructor.get(f"/grades/staff/items/{quiz.pk}/").content.decode()
    )


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_note_stays_after_hiding_through_htmx(client_instructor, make_item, lang) -> None:
    lab, quiz = make_item("lab:3"), make_item("quiz:1")
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    for item, shown in ((lab, True), (quiz, False)):
        response = client_instructor.post(
            f"/grades/staff/items/{item.pk}/release/", {"released": "0"}, HTTP_HX_REQUEST="true"
        )
        assert response.status_code == 200
        assert (NOTE[lang] in response.content.decode()) is shown
