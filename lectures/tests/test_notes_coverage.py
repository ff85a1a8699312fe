"""Must-hold 1 and 2: everything of the notes file shows up on the rendered site.

The notes file itself is parsed here (``lectures.notes``); its headings and code blocks are then
looked for in the HTML the site serves, page by page, through HTTP.
"""

from __future__ import annotations

import re
from html import unescape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from lectures.convert_notes import convert
from lectures.notes import (
    BULLET_RE,
    code_blocks,
    code_line_indexes,
    lecture_headings,
    read_notes,
    section_headings,
)
from lectures.tests.conftest import CONTENT, NOTES

pytestmark = pytest.mark.django_db
MATH_RE = re.compile(r"\$\$.+?\$\$|\$[^$]+?\$")


class PageText(HTMLParser):
    """Collects visible text outside code/math, the text of each highlighted code block (except
    those inside 编者补充 boxes), and every element id."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.prose: list[str] = []
        self.code_blocks: list[str] = []
        self.ids: set[str] = set()
        self._stack: list[tuple[str, str]] = []
        self._skip = 0  # depth inside <pre>/<code>/<math>/<script>/<style>
        self._in_note = 0
        self._block: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        cls = a.get("class") or ""
        if a.get("id"):
            self.ids.add(a["id"])
        if tag in ("pre", "code", "math", "script", "style"):
            self._skip += 1
        if tag == "div" and "admonition" in cls.split():
            self._in_note += 1
        if tag == "div" and "codehilite" in cls.split() and not self._in_note:
            self._block = []
        self._stack.append((tag, cls))

    def handle_endtag(self, tag: str) -> None:
        while self._stack:
            open_tag, cls = self._stack.pop()
            if open_tag in ("pre", "code", "math", "script", "style"):
                self._skip -= 1
            if open_tag == "div" and "admonition" in cls.split():
                self._in_note -= 1
            if open_tag == "div" and "codehilite" in cls.split() and self._block is not None:
                self.code_blocks.append("".join(self._block))
                self._block = None
            if open_tag == tag:
                break

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if dict(attrs).get("id"):
            self.ids.add(dict(attrs)["id"])

    def handle_data(self, data: str) -> None:
        if self._block is not None:
            self._block.append(data)
        if not self._skip:
            self.prose.append(data)


def parse_page(html: str) -> PageText:
    parser = PageText()
    parser.feed(html)
    return parser


@pytest.fixture(scope="module")
def notes() -> list[str]:
    return read_notes(NOTES)


@pytest.fixture
def pages(imported, client_a) -> dict[str, PageText]:
    from lectures.models import Lecture

    out = {}
    for number in Lecture.objects.values_list("number", flat=True):
        resp = client_a.get(f"/lectures/{number}/")
        assert resp.status_code == 200
        out[f"lecture-{number}"] = parse_page(resp.content.decode())
    for url in ("/lectures/", "/lectures/map/", "/lectures/cheatsheet/"):
        resp = client_a.get(url)
        assert resp.status_code == 200
        out[url] = parse_page(resp.content.decode())
    return out


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", unescape(text)).strip()


def _text_parts(title: str) -> list[str]:
    """The non-math pieces of a heading title (math renders as MathML, not as text)."""
    return [p.strip() for p in MATH_RE.split(title) if p.strip()]


def test_every_lecture_heading_of_the_notes_is_on_its_page(notes, pages) -> None:
    found = lecture_headings(notes)
    assert len(found) == len({n for n, _ in found}) >= 9  # one page per lecture, none skipped
    for number, title in found:
        page = pages.get(f"lecture-{number}")
        assert page is not None, f"第 {number} 讲 has no page"
        text = _flat(" ".join(page.prose))
        assert f"第 {number} 讲 · {title}" in text


def test_every_numbered_heading_of_the_notes_is_on_the_site(notes, pages) -> None:
    headings = section_headings(notes)
    assert headings, "the notes parser found no N.M headings"
    for number, title in headings:
        page = pages[f"lecture-{number.split('.')[0]}"]
        anchor = "sec-" + number.replace(".", "-")
        assert anchor in page.ids, f"{number} has no #{anchor} on the page"
        text = _flat(" ".join(page.prose))
        for part in _text_parts(title):
            assert f"{part}" in text, f"heading {number} {title!r}: {part!r} missing"
        assert f"{number} " in text


def test_no_raw_dollar_outside_code_on_any_page(pages) -> None:
    for name, page in pages.items():
        text = " ".join(page.prose)
        assert "$" not in text, f"{name}: raw $ in {text[max(0, text.find('$') - 60) :][:120]!r}"


def test_every_code_block_of_the_notes_renders_highlighted(notes, pages) -> None:
    expected = code_blocks(notes)
    rendered = [b for n in sorted(pages, key=_lecture_order) for b in pages[n].code_blocks]
    assert len(rendered) == len(expected)
    for block, html_text in zip(expected, rendered, strict=True):
        assert html_text.rstrip("\n") == block.text


def test_highlighted_blocks_carry_a_language_and_tokens(imported, client_a) -> None:
    html = client_a.get("/lectures/3/").content.decode()
    langs = re.findall(r'<div class="codehilite" data-lang="(\w+)">', html)
    assert langs and set(langs) == {"cuda"}
    assert '<span class="kt">int</span>' in html  # Pygments tokens, not plain text


def test_code_detector_misses_no_indented_code_line(notes) -> None:
    """Independent check of the detector: every 4-space indented non-bullet line is in a block."""
    inside = code_line_indexes(notes)
    for i, line in enumerate(notes):
        if line.startswith("    ") and not BULLET_RE.match(line):
            assert i in inside, f"notes line {i + 1} looks like code but is in no block"


def test_committed_content_is_what_the_converter_produces(tmp_path: Path) -> None:
    convert(NOTES, tmp_path)
    for produced in sorted(tmp_path.glob("*.md")):
        committed = CONTENT / "lectures" / produced.name
        assert committed.read_text(encoding="utf-8") == produced.read_text(encoding="utf-8")


def _lecture_order(name: str) -> tuple[int, int]:
    if name.startswith("lecture-"):
        return (0, int(name.split("-")[1]))
    return (1, 0)


def test_every_paragraph_and_bullet_of_the_notes_is_on_its_page(notes, pages) -> None:
    """Each prose line of a lecture (paragraph, bullet, sub-heading) shows up on that lecture's
    page; math is compared by its text around the formulas, which render as MathML."""
    in_code = code_line_indexes(notes)
    starts = [(i, n) for i, line in enumerate(notes) if (n := _lecture_number(line))]
    end = next(i for i, line in enumerate(notes) if line.strip() == "互动自测")
    bounds = [s for s, _ in starts[1:]] + [end]
    checked = 0
    for (start, number), stop in zip(starts, bounds, strict=True):
        text = _flat(" ".join(pages[f"lecture-{number}"].prose))
        for i in range(start + 1, stop):
            if i in in_code or not notes[i].strip():
                continue
            prose = BULLET_RE.sub(r"\g<text>", notes[i]).strip()
            prose = re.sub(r"^\d+\. ", "", prose)
            for part in _text_parts(prose):
                assert _flat(part) in text, (
                    f"notes line {i + 1} missing on lecture {number}: {part!r}"
                )
                checked += 1
    assert checked > 1000  # the whole body of the notes, not a handful of lines


def _lecture_number(line: str) -> int | None:
    from lectures.notes import LECTURE_RE

    m = LECTURE_RE.match(line)
    return int(m["num"]) if m else None
