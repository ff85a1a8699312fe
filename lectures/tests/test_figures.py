"""Must hold 4: the lectures' diagrams. Every figure's SVG parses and carries <title>/<desc>; the
generator reproduces the committed files byte for byte; each figure is placed in the section it
explains, drawn and captioned in the reader's language only (the Chinese caption marked 编者补充),
and renders on that page."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from django.conf import settings

from lectures.figures import (
    FIGURE_DIR,
    FIGURES,
    LANGS,
    figure_html,
    figure_path,
    figure_slot,
    in_language,
    write_all,
)
from lectures.models import Section
from lectures.tests.conftest import CONTENT

SVG_NS = "{http://www.w3.org/2000/svg}"
MIN_FIGURES = 15
SECTION_RE = re.compile(r'<section class="lecture-(?:sub)?section" id="(sec-[\d-]+)"')


def test_generator_reproduces_the_committed_svgs_byte_for_byte(tmp_path: Path) -> None:
    written = write_all(tmp_path)
    assert len(written) == len(LANGS) * len(FIGURES) and len(FIGURES) >= MIN_FIGURES
    committed = sorted(p.name for p in FIGURE_DIR.glob("*.svg"))
    assert committed == sorted(p.name for p in written)  # no stale or hand-made extra file
    for path in written:
        assert (FIGURE_DIR / path.name).read_bytes() == path.read_bytes(), path.name


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.slug)
def test_svg_parses_with_title_and_desc_and_no_inline_style(figure, lang) -> None:
    source = figure_path(figure.slug, lang).read_text(encoding="utf-8")
    root = ET.fromstring(source)
    assert root.tag == f"{SVG_NS}svg" and root.get("role") == "img"
    title, desc = root.find(f"{SVG_NS}title"), root.find(f"{SVG_NS}desc")
    assert title is not None and (title.text or "").strip(), figure.slug
    assert desc is not None and len((desc.text or "").strip()) > 30, figure.slug
    assert root.get("aria-labelledby") == f"{title.get('id')} {desc.get('id')}"
    for element in root.iter():
        assert "style" not in element.attrib, (figure.slug, element.tag)  # CSP: no inline style
        assert element.tag not in (f"{SVG_NS}script", f"{SVG_NS}style", f"{SVG_NS}image")
    # Readable on light and dark pages: ink is the page's text colour, fills are translucent.
    colours = set(re.findall(r'(?:stroke|fill)="(#[0-9a-fA-F]{3,6}|black|white)"', source))
    fills_with_opacity = re.findall(r'fill="#[0-9a-f]{6}" fill-opacity="0?\.\d+"', source)
    assert len(fills_with_opacity) == len(re.findall(r'fill="#[0-9a-f]{6}"', source))
    assert not colours & {"black", "white", "#000", "#fff", "#000000", "#ffffff"}
    assert 'stroke="currentColor"' in source and 'fill="currentColor"' in source


CJK_RE = re.compile(r"[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef]")
# English words that say something (not symbols, formulas or product names): a Chinese drawing
# that shows one has a label left untranslated.
ENGLISH_WORDS = {"the", "of", "and", "per", "each", "in", "is", "are", "with", "from", "to",
                 "for", "by", "at", "vs", "time", "size", "split", "state", "loop", "round",
                 "rounds", "bound", "large", "small", "data", "read", "step", "steps", "send",
                 "output", "input", "total", "faster", "slower", "direct", "useful", "segment",
                 "banks", "sequential", "interleaved", "message", "ring", "tree", "layers"}  # fmt: skip


def _shapes(source: str) -> list[str]:
    return [row for row in source.splitlines() if not row.startswith(("<text", "<title", "<desc"))]


def _labels(source: str) -> list[str]:
    return [html.unescape(t) for t in re.findall(r"<text [^>]*>([^<]*)</text>", source)]


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.slug)
def test_each_drawing_speaks_one_language(figure) -> None:
    zh = figure_path(figure.slug, "zh").read_text(encoding="utf-8")
    en = figure_path(figure.slug, "en").read_text(encoding="utf-8")
    assert not CJK_RE.search(en), figure.slug  # labels, <title> and <desc>
    assert CJK_RE.search(ET.fromstring(zh).find(f"{SVG_NS}title").text), figure.slug
    assert CJK_RE.search(ET.fromstring(zh).find(f"{SVG_NS}desc").text), figure.slug
    zh_labels, en_labels = _labels(zh), _labels(en)
    assert _shapes(zh) == _shapes(en), figure.slug  # the same drawing, only the words differ
    assert zh_labels != en_labels, figure.slug
    for label in zh_labels:
        words = set(re.findall(r"[a-z]+", label.lower()))
        assert not words & ENGLISH_WORDS, (figure.slug, label)


@pytest.mark.parametrize("figure", FIGURES, ids=lambda f: f.slug)
def test_captions_are_marked_and_in_one_language(figure) -> None:
    zh = figure_html(figure.slug, "zh").split("<figcaption>", 1)[1]
    assert "编者补充" in zh and html.escape(figure.caption_zh) in zh
    assert html.escape(figure.caption_en) not in zh and "Editor" not in zh
    en = figure_html(figure.slug, "en")
    assert 'lang="en"' in en and "Editor&#x27;s figure" in en
    assert html.escape(figure.caption_en) in en and not CJK_RE.search(en)
    assert all(CJK_RE.search(t) for t in (figure.title[0], figure.desc[0], figure.caption_zh))


def _section_slice(md: str, number: str) -> str:
    """The Markdown of section ``number`` up to the next heading of any level."""
    anchor = "{#sec-" + number.replace(".", "-") + "}"
    start = next(i for i, line in enumerate(md.splitlines()) if line.endswith(anchor))
    lines = md.splitlines()[start + 1 :]
    end = next((i for i, line in enumerate(lines) if line.startswith("#")), len(lines))
    return "\n".join(lines[:end])


def test_every_figure_is_referenced_from_its_own_section() -> None:
    seen = set()
    for figure in FIGURES:
        lecture = int(figure.section.split(".")[0])
        md = (CONTENT / "lectures" / f"lecture-{lecture:02d}.md").read_text(encoding="utf-8")
        assert f"!figure {figure.slug}\n" in _section_slice(md, figure.section) + "\n", figure.slug
        assert md.count(f"!figure {figure.slug}\n") == 1, figure.slug
        seen.add(figure.slug)
    assert len(seen) == len(FIGURES)


@pytest.mark.django_db
@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_renders_inside_its_section_on_the_lecture_page(
    imported, client_a, lang
) -> None:
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en" if lang == "en" else "zh-hans"
    pages: dict[int, str] = {}
    for figure in FIGURES:
        lecture = int(figure.section.split(".")[0])
        if lecture not in pages:
            response = client_a.get(f"/lectures/{lecture}/")
            assert response.status_code == 200
            pages[lecture] = response.content.decode()
        page = pages[lecture]
        assert page.count(f'id="fig-{figure.slug}"') == 1, figure.slug
        anchor = "sec-" + figure.section.replace(".", "-")
        headings = [(m.start(), m.group(1)) for m in SECTION_RE.finditer(page)]
        at = next(pos for pos, name in headings if name == anchor)
        after = [pos for pos, _name in headings if pos > at]
        where = page.index(f'id="fig-{figure.slug}"')
        assert at < where < (after[0] if after else len(page)), figure.slug
        fragment = page[where : page.index("</figure>", where)]
        drawn = fragment[fragment.index("<svg") : fragment.index("</svg>") + 6]
        ET.fromstring(drawn)
        assert drawn == figure_path(figure.slug, lang).read_text(encoding="utf-8").strip()
        assert html.escape(figure.caption[LANGS.index(lang)]) in page[where:], figure.slug
    assert "!figure" not in page and "pdc-figure" not in page


@pytest.mark.django_db
def test_stored_html_holds_a_slot_that_the_page_fills(imported) -> None:
    """The words of a figure follow the reader, so the import stores where it goes, not it."""
    body = Section.objects.get(number="9.3.2").body_html
    assert figure_slot("pipeline-bubble") in body and "<svg" not in body
    assert in_language(body, "en").count("empty cells = bubble") == 1
    assert "Editor" not in in_language(body, "zh") and "<svg" in in_language(body, "zh")
    assert in_language(figure_slot("no-such-figure"), "zh") == ""  # renamed since the import
