"""Staff write a Chinese and an English version side by side in the admin (a quiz's title, a
choice's text, a lecture's module name). Each input says its language, so the browser's spell
check, hyphenation and screen reader treat the English box as English on a Chinese page; before,
every box took the page's language."""

from __future__ import annotations

import re

import pytest

from lectures.models import Lecture, Section
from quizzes.tests.factories import quiz_with

pytestmark = pytest.mark.django_db


def _lang_of(page: str, name: str) -> str | None:
    """The lang attribute of the input or textarea named `name` (None when it has none)."""
    tag = re.search(rf'<(?:input|textarea)\b[^>]*\bname="{re.escape(name)}"[^>]*>', page)
    assert tag, f"no field {name}"
    lang = re.search(r'\blang="([^"]+)"', tag.group(0))
    return lang.group(1) if lang else None


def _pages() -> dict[str, list[str]]:
    lecture = Lecture.objects.create(number=5, title="Triton", overview_md="…")
    section = Section.objects.create(lecture=lecture, number="5.1", slug="sec-5-1", title="块")
    quiz = quiz_with([])
    return {
        f"/admin/quizzes/quiz/{quiz.pk}/change/": ["title", "description"],
        "/admin/quizzes/question/add/": ["stem", "explanation", "choices-__prefix__-text"],
        f"/admin/lectures/lecture/{lecture.pk}/change/": ["title", "module"],
        f"/admin/lectures/section/{section.pk}/change/": ["title"],
    }


def test_every_chinese_english_pair_in_the_admin_says_its_language(client_instructor) -> None:
    for url, names in _pages().items():
        response = client_instructor.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        for name in names:
            assert (_lang_of(page, name), _lang_of(page, f"{name}_en")) == ("zh-CN", "en"), name
        assert _lang_of(page, "csrfmiddlewaretoken") is None  # fields without a twin: unmarked
