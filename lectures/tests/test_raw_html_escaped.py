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


# attr_list writes any attribute a line asks for, and links take any URL: with htmx on every page
# (it sends the CSRF token of <body>), "{: hx-post=… hx-trigger=load }" in a TA's announcement
# made every reader's browser post to the admin as the reader (an audit made a TA superuser so).
ATTRIBUTE_PAYLOAD = (
    "欢迎\n"
    '{: hx-post="/admin/auth/user/3/change/" hx-vals=\'{"is_superuser":"on"}\' '
    'hx-trigger="load" hx-swap="none" data-hx-post="/x" }\n\n'
    '[点我](javascript:alert(1)) ![图](x.png){: onerror="alert(1)" class="btn" }\n\n'
    '[a](https://example.com "$"onmouseover=alert(1)$") 与 [b](https://example.com){: #PDCXM0X }\n\n'
    '## 二级标题 {#sec-9-1 onclick="alert(1)" style="color:red" }\n'
)
ALLOWED = {"a": {"href", "title"}, "img": {"src", "alt", "title"}, "h2": {"id"}}


class _Attributes(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.found.extend((tag, name, value or "") for name, value in attrs)


def test_markdown_attributes_and_urls_are_allow_listed() -> None:
    html = render_markdown(ATTRIBUTE_PAYLOAD, link=lambda n: f"/lectures/#{n}").html
    parsed = _Attributes()
    parsed.feed(html)
    markdown_made = [(t, n, v) for t, n, v in parsed.found if t in ALLOWED]
    assert {n for _t, n, _v in markdown_made} <= {"href", "title", "src", "alt", "id"}
    assert all(n in ALLOWED[t] for t, n, _v in markdown_made), markdown_made
    assert not any(n.startswith(("on", "hx-", "data-hx")) for _t, n, _v in parsed.found)
    assert not any("javascript:" in v for _t, _n, v in parsed.found)
    assert '<h2 id="sec-9-1">' in html  # the anchors the notes' links use still work
    assert "<a>点我</a>" in html  # the link's text stays; the URL does not


def test_a_formula_carries_no_element_or_url() -> None:
    """latex2mathml copies \\text{…} unescaped and \\href{…} into an href; the formula came back
    after the Markdown was cleaned, so an audit's "$\\text{<div hx-post=… hx-trigger=load>}$" in a
    lecture posted with every reader's session."""
    text = (
        '$\\text{<div/hx-post="/accounts/profile/pseudonym/"/hx-trigger="load">x</div>}$ 与 '
        "$\\href{javascript:alert(1)}{y}$ 与 $$\\text{<img src=x onerror=alert(1)>}$$ 与 $x^2$"
    )
    html = render_markdown(text).html
    parsed = _Attributes()
    parsed.feed(html)
    assert not any(n.startswith(("on", "hx-", "href")) for _t, n, _v in parsed.found), parsed.found
    assert not {"div", "img"} & set(_tags(html)) and "<msup>" in html
