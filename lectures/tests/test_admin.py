"""Admin: staff edit sections as Markdown with a server-rendered preview; students cannot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lectures.models import Section

pytestmark = pytest.mark.django_db
PO = Path(__file__).resolve().parent.parent / "locale" / "en" / "LC_MESSAGES" / "django.po"


def test_instructor_edits_a_section_and_the_page_shows_it(
    imported, client_instructor, client_a
) -> None:
    section = Section.objects.get(slug="sec-3-4")
    url = f"/admin/lectures/section/{section.pk}/change/"
    page = client_instructor.get(url)
    assert page.status_code == 200 and 'class="md-preview"' in page.content.decode()
    resp = client_instructor.post(url, {"title": section.title, "body_md": "改写后 $x^2$ 的正文。"})
    assert resp.status_code == 302
    section.refresh_from_db()
    assert section.edited_at is not None and "<math" in section.body_html
    assert "改写后" in client_a.get("/lectures/3/").content.decode()


def test_preview_endpoint_renders_markdown_for_staff_only(
    imported, client_instructor, client_a
) -> None:
    url = "/admin/lectures/section/preview/"
    resp = client_instructor.post(url, {"markdown": "**粗体** $a+b$\n\n```c\nint x;\n```\n"})
    html = json.loads(resp.content)["html"]
    assert "<strong>粗体</strong>" in html and "<math" in html and "codehilite" in html
    drawn = json.loads(client_instructor.post(url, {"markdown": "!figure roofline\n"}).content)
    assert "<svg" in drawn["html"] and "编者补充" in drawn["html"]  # the slot, filled
    bad = client_instructor.post(url, {"markdown": "```c\nint x;\n"})
    assert (
        bad.status_code == 400
        and "第 1 行：以 ``` 开始的代码块没有结束" in json.loads(bad.content)["error"]
    )
    assert client_a.post(url, {"markdown": "x"}).status_code == 302  # to the admin login


def test_english_catalogue_translates_every_string() -> None:
    text = PO.read_text(encoding="utf-8")
    entries = text.split("\n\n")[1:]
    assert entries and all('msgstr ""' not in e and 'msgstr[0] ""' not in e for e in entries)


def test_instructor_edits_a_lecture_overview_and_the_page_shows_it(
    imported, client_instructor, client_a
) -> None:
    from lectures.models import Lecture

    lecture = Lecture.objects.get(number=4)
    client_a.get("/lectures/4/")  # cache the page first
    url = f"/admin/lectures/lecture/{lecture.pk}/change/"
    assert 'class="md-preview"' in client_instructor.get(url).content.decode()
    data = {
        "title": lecture.title,
        "module": lecture.module,
        "overview_md": "新的概述，含 $O(n^2)$。",
        "intro_md": "",
        "sections-TOTAL_FORMS": "0",
        "sections-INITIAL_FORMS": "0",
    }
    resp = client_instructor.post(url, data)
    assert resp.status_code == 302, resp.content.decode()[:2000]
    page = client_a.get("/lectures/4/").content.decode()
    assert "新的概述，含" in page and "$" not in page.split("新的概述")[1][:300]
