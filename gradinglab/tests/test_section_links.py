"""A problem page links the lecture sections it practises, named in the page's language: the
section's English title on English pages (it showed the Chinese one there), the Chinese one,
marked lang="zh-CN", where the section has no English title."""

from __future__ import annotations

import pytest
from django.conf import settings

from gradinglab.tests import labkit
from lectures.models import Lecture, Section

pytestmark = pytest.mark.django_db

ZH, EN = "向量加法：第一个 Triton 核", "Vector Addition: A First Triton Kernel"


def _page(client, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get("/lab/problems/vector-add/")
    assert response.status_code == 200
    return response.content.decode()


def _section(title_en: str) -> None:
    lecture = Lecture.objects.create(number=5, title="Triton", overview_md="…")
    Section.objects.create(
        lecture=lecture, number="5.13", slug="sec-5-13", title=ZH, title_en=title_en
    )


def test_practised_section_is_named_in_the_pages_language(client_a) -> None:
    labkit.make_assignment()
    _section(EN)
    en, zh = _page(client_a, "en"), _page(client_a, "zh-hans")
    assert f'href="/lectures/5/#sec-5-13">§5.13 {EN}</a>' in en and ZH not in en
    assert f'<span lang="zh-CN">{ZH}</span>' in zh and EN not in zh


def test_a_section_without_an_english_title_shows_its_chinese_one_marked(client_a) -> None:
    labkit.make_assignment()
    _section("")
    assert f'§5.13 <span lang="zh-CN">{ZH}</span></a>' in _page(client_a, "en")
