"""Markdown the renderer refuses (an unclosed ``` fence, an unknown figure), saved in the admin,
is an error next to the box with its line, in the reader's language, and the saved text is left as
it was. It was a server error (500) that lost the staff member's edit."""

from __future__ import annotations

import pytest
from django.conf import settings

from lectures.models import CoursePage, Lecture, Section

pytestmark = pytest.mark.django_db
UNCLOSED = "第一段。\n\n```c\nint x;\n"


@pytest.fixture
def section() -> Section:
    lecture = Lecture.objects.create(number=5, title="Triton", overview_md="…", intro_md="引言。")
    return Section.objects.create(
        lecture=lecture, number="5.1", slug="sec-5-1", title="块", body_md="原文。"
    )


def _field_error(response, field: str) -> str:
    errors = response.context["adminform"].form.errors
    return " ".join(errors.get(field, []))


def test_an_unclosed_fence_is_an_error_at_the_box(client_instructor, section) -> None:
    url = f"/admin/lectures/section/{section.pk}/change/"
    response = client_instructor.post(url, {"title": "块", "title_en": "", "body_md": UNCLOSED})
    assert response.status_code == 200
    assert _field_error(response, "body_md") == "第 3 行：以 ``` 开始的代码块没有结束。"
    section.refresh_from_db()
    assert section.body_md == "原文。" and section.edited_at is None


def test_an_unknown_figure_in_a_lecture_introduction_in_english(client_instructor, section) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    lecture = section.lecture
    response = client_instructor.post(
        f"/admin/lectures/lecture/{lecture.pk}/change/",
        {
            "title": "Triton",
            "module": "",
            "overview_md": "…",
            "intro_md": "引言。\n!figure no-such-figure\n",
            "sections-TOTAL_FORMS": "0",
            "sections-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 200
    assert _field_error(response, "intro_md") == (
        "Line 2: There is no figure named no-such-figure."
    )
    lecture.refresh_from_db()
    assert lecture.intro_md == "引言。"


def test_a_course_page_with_bad_markdown_keeps_its_text(client, django_user_model) -> None:
    # Course pages are the site administrator's (no course role may change them).
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    page = CoursePage.objects.create(slug="syllabus", title="大纲", body_md="原文。")
    response = client.post(
        f"/admin/lectures/coursepage/{page.pk}/change/",
        {"slug": "syllabus", "title": "大纲", "body_md": UNCLOSED},
    )
    assert response.status_code == 200 and _field_error(response, "body_md").startswith("第 3 行")
    page.refresh_from_db()
    assert page.body_md == "原文。"
