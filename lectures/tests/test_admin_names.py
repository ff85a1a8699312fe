"""A lecture and a section are named in the page's language where the admin names them (lists,
breadcrumbs, a section's lecture): "第 1 讲 · 引论" was hard-coded Chinese on English pages."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from lectures.models import Lecture, Section

pytestmark = pytest.mark.django_db


def test_lectures_and_sections_are_named_in_the_pages_language(client_instructor) -> None:
    lecture = Lecture.objects.create(
        number=1, title="引论：为什么需要并行", title_en="Why parallelism", overview_md="…"
    )
    section = Section.objects.create(
        lecture=lecture, number="1.1", slug="sec-1-1", title="摩尔定律", title_en="Moore's law"
    )
    with translation.override("en"):
        assert (str(lecture), str(section)) == ("Lecture 1 · Why parallelism", "1.1 Moore's law")
    with translation.override("zh-hans"):
        assert (str(lecture), str(section)) == ("第 1 讲 · 引论：为什么需要并行", "1.1 摩尔定律")
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get(f"/admin/lectures/section/{section.pk}/change/").content.decode()
    assert "Lecture 1 · Why parallelism" in page and "第 1 讲" not in page
