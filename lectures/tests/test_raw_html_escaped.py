"""Raw HTML typed into lecture Markdown is shown as text, never as live elements."""

from __future__ import annotations

import json
from html.parser import HTMLParser

import pytest

from lectures.models import Section
from lectures.rendering import render_markdown

PAYLOAD = (
    "正文 <script>alert(1)</script> 与 <img src=x onerror=alert(1)> 之后。\n\n"
    "<iframe src=https://example.com></iframe>\n\n"
    "<script>\nalert(2)\n</script>\n\n"
    "代码 `<b>x</b>` 与公式 $x^2$ 照常。\n"
)


class _Elements(HTMLParser):
    """Collects what a browser would build: tag names, attribute names, script bodies."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: set[str] = set()
        self.scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.update(name for name, _ in attrs)
        self._in_script = tag == "script"

    def handle_endtag(self, tag: str) -> None:
        self._in_script = False

    def handle_data(self, data: str) -> None:
        if self._in_script:
            self.scripts.append(data)


def _assert_inert(html: str) -> None:
    found = _Elements()
    found.feed(html)
    assert "iframe" not in found.tags
    assert "onerror" not in found.attrs
    assert not any("alert(" in body for body in found.scripts)
    assert "<script>alert" not in html and "<img src=x" not in html


def test_rendered_markdown_escapes_raw_html() -> None:
    html = render_markdown(PAYLOAD).html
    _assert_inert(html)
    assert "script" not in _tags(html) and "img" not in _tags(html)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html  # shown as text
    assert "&lt;iframe src=https://example.com&gt;" in html
    assert "<code>&lt;b&gt;x&lt;/b&gt;</code>" in html and "<math" in html


def test_renderer_html_still_works() -> None:
    text = "# 标题 {#h}\n\n```c\nint x;\n```\n\n!figure roofline\n\n$$a+b$$\n\n&lt;N&gt;\n"
    html = render_markdown(text).html
    assert '<h1 id="h">' in html and "codehilite" in html and "<math" in html
    assert "<!--pdc-figure:roofline-->" in html  # the figure slot, filled on the page
    assert "&lt;N&gt;" in html  # entities stay entities


def _tags(html: str) -> list[str]:
    found = _Elements()
    found.feed(html)
    return found.tags


@pytest.mark.django_db
def test_saved_section_page_and_preview_carry_no_live_html(
    imported, client_instructor, client_a
) -> None:
    section = Section.objects.get(slug="sec-3-4")
    url = f"/admin/lectures/section/{section.pk}/change/"
    resp = client_instructor.post(url, {"title": section.title, "body_md": PAYLOAD})
    assert resp.status_code == 302
    section.refresh_from_db()
    _assert_inert(section.body_html)
    page = client_a.get("/lectures/3/").content.decode()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    _assert_inert(page)
    _assert_inert(client_instructor.get(url).content.decode())  # the admin's saved preview
    preview = client_instructor.post("/admin/lectures/section/preview/", {"markdown": PAYLOAD})
    _assert_inert(json.loads(preview.content)["html"])
