"""python-markdown's code spans, links, images and heading ids, in linear time for the same output.

python-markdown 3.9 matches a code span with one regex whose back-reference makes a run of
unmatched backticks cost O(n³) (2,000 backticks: over 15 s; upstream issue #1617, fixed after
3.9 by walking the runs, PR #1625), and finds the end of ``[text]`` and ``(url)`` by walking the
rest of the paragraph from every ``[``: O(n²) on unclosed brackets ("[x](" * 20000, 80 KB: 112 s;
upstream #798, open), and gives the k-th heading of the same name its id by trying ``_1`` to
``_k`` (2,000 headings "# a": 5.6 s), and, after each heading line, asks whether the rest of
its block is a table by splitting the whole rest into lines (8,000 heading lines: over 15 s). A staff member's preview or save held a web worker that
long. What follows gives the same HTML for every input (lectures/tests/test_render_bounds.py
checks it against python-markdown's own on generated text): each end comes from a table built
once per paragraph text, each heading id resumes where the last one of its name stopped.
"""

from __future__ import annotations

import re
import types
import xml.etree.ElementTree as etree
from collections.abc import MutableSet

from markdown import Markdown, util
from markdown.extensions import tables, toc
from markdown.inlinepatterns import (
    IMAGE_LINK_RE,
    IMAGE_REFERENCE_RE,
    LINK_RE,
    REFERENCE_RE,
    BacktickInlineProcessor,
    ImageInlineProcessor,
    ImageReferenceInlineProcessor,
    LinkInlineProcessor,
    ReferenceInlineProcessor,
    ShortImageReferenceInlineProcessor,
    ShortReferenceInlineProcessor,
)

# Where a code span or an escaped backslash run may start. BACKTICK_RE's two alternatives also
# need no backslash before it: handleMatch checks that, as a lookbehind here would make the
# search, re-run from the paragraph's start after every match, four times slower.
_TICK_START = r"[\\`]"
_TICKS = re.compile(r"`+")
_BACKSLASHES = re.compile(r"\\+")
# A short walk finds most ends (a link's text is a few words); past this many brackets the
# table is built instead. Unit: bracket characters.
_WALK_BRACKETS = 64


class _Pairs:
    """The closer of each opener (``[``/``]`` or ``(``/``)``) in one text, as python-markdown's
    own walk finds it: the first point where the nesting depth, counted from the opener, is 0."""

    def __init__(self, opener_char: str, closer_char: str) -> None:
        self.open_char = opener_char
        self.any = re.compile(f"[{re.escape(opener_char)}{re.escape(closer_char)}]")
        self.text: str | None = None
        self.close_of: dict[int, int] = {}

    def close(self, data: str, index: int, opener: int) -> int | None:
        """The closer's position for the walk from ``index``, else None; ``opener`` is the
        opener's position (only non-brackets lie between it and ``index``), or -1 if none."""
        if opener >= 0 and self.text is data:
            return self.close_of.get(opener)
        depth = 1
        for n, m in enumerate(self.any.finditer(data, index)):
            depth += 1 if m[0] == self.open_char else -1
            if depth == 0:
                return m.start()
            if n == _WALK_BRACKETS:
                break
        else:
            return None
        if opener < 0:
            return self._walk(data, index)
        if self.text is not data:
            self._build(data)
        return self.close_of.get(opener)

    def _walk(self, data: str, index: int) -> int | None:
        depth = 1
        for m in self.any.finditer(data, index):
            depth += 1 if m[0] == self.open_char else -1
            if depth == 0:
                return m.start()
        return None

    def _build(self, data: str) -> None:
        stack: list[int] = []
        self.close_of = {}
        for m in self.any.finditer(data):
            if m[0] == self.open_char:
                stack.append(m.start())
            elif stack:
                self.close_of[stack.pop()] = m.start()
        self.text = data


class _Ends:
    """The bracket and parenthesis tables of one render, shared by its link processors."""

    def __init__(self) -> None:
        self.brackets = _Pairs("[", "]")
        self.parens = _Pairs("(", ")")
        self.text: str | None = None
        self.last_quote = -1

    def quote_after(self, data: str, index: int) -> bool:
        if self.text is not data:
            self.text, self.last_quote = data, max(data.rfind('"'), data.rfind("'"))
        return self.last_quote >= index


class _LinearText:
    """``getText`` from the bracket table; ``getLink`` from the parenthesis table when no quote
    follows (with a quote, a title may change where the link ends: python-markdown's walk)."""

    ends: _Ends

    def getText(self, data: str, index: int) -> tuple[str, int, bool]:
        opener = index - 1 if index and data[index - 1] == "[" else -1
        close = self.ends.brackets.close(data, index, opener)
        if close is None:
            return data[index:], len(data), False
        return data[index:close], close + 1, True

    def getLink(self, data: str, index: int) -> tuple[str, str | None, int, bool]:
        m = self.RE_LINK.match(data, pos=index)
        if not m or m.group(1) or self.ends.quote_after(data, m.end()):
            return super().getLink(data, index)
        close = self.ends.parens.close(data, m.end(), m.start())
        if close is None:
            return "", None, index, False
        return self.unescape(data[m.end() : close]).strip(), None, close + 1, True


class _Link(_LinearText, LinkInlineProcessor):
    pass


class _Image(_LinearText, ImageInlineProcessor):
    pass


class _Reference(_LinearText, ReferenceInlineProcessor):
    pass


class _ImageReference(_LinearText, ImageReferenceInlineProcessor):
    pass


class _ShortReference(_LinearText, ShortReferenceInlineProcessor):
    pass


class _ShortImageReference(_LinearText, ShortImageReferenceInlineProcessor):
    pass


class _Backtick(BacktickInlineProcessor):
    """BACKTICK_RE's match, found by counting runs: from an unescaped run of ``R`` backticks,
    the longest ``k <= R`` for which a later run of exactly ``k`` backticks exists closes the
    span at the first such run (the regex tries ``k = R`` first, then shorter ones, and its lazy
    body stops at the first closer); an even run of backslashes before a backtick is kept."""

    def handleMatch(self, m: re.Match[str], data: str):
        p = m.start()
        if p and data[p - 1] == "\\":
            return None, None, None
        if data[p] == "\\":
            run = _BACKSLASHES.match(data, p).end()
            if (run - p) % 2 or run == len(data) or data[run] != "`":
                return None, None, None
            return data[p:run].replace("\\\\", self.ESCAPED_BSLASH), p, run
        # The position before, in the same run, was tried and had every k this one has.
        if p - 1 >= m.pos and data[p - 1] == "`" and (p < 2 or data[p - 2] != "\\"):
            return None, None, None
        end = _TICKS.match(data, p).end()
        closer = _closing_run(data, end, end - p)
        if closer is None:
            return None, None, None
        start, k = closer
        el = etree.Element(self.tag)
        el.text = util.AtomicString(util.code_escape(data[p + k : start].strip()))
        return el, p, start + k


def _closing_run(data: str, after: int, longest: int) -> tuple[int, int] | None:
    """(start, length) of the first run after ``after`` of the longest length <= ``longest``
    that occurs there."""
    first: dict[int, int] = {}
    for run in _TICKS.finditer(data, after):
        k = run.end() - run.start()
        if k == longest:
            return run.start(), k
        if k < longest:
            first.setdefault(k, run.start())
    if not first:
        return None
    k = max(first)
    return first[k], k


class _Table(tables.TableProcessor):
    """A block is a table by its first two lines, or, for a one-column table with borders, by
    every line: split only what ``test`` reads (``run`` splits the block itself)."""

    def test(self, parent: etree.Element, block: str) -> bool:
        head = block.split("\n", 2)
        if len(head) < 2:
            return False
        header0 = head[0].strip(" ")
        # The border first, as the stock test sets it: _split_row reads it, and a value left by
        # the previous block split "|a" in two (a review found such tables drawn differently).
        self.border = tables.PIPE_NONE
        if header0.startswith("|"):
            self.border |= tables.PIPE_LEFT
        if self.RE_END_BORDER.search(header0) is not None:
            self.border |= tables.PIPE_RIGHT
        if len(self._split_row(header0)) == 1 and self.border:
            return super().test(parent, block)
        return super().test(parent, "\n".join(head[:2]))


def use_linear(md: Markdown) -> None:
    """Replace the processors above in ``md`` (same names and priorities as python-markdown's);
    ``md`` has the tables extension."""
    table = md.parser.blockprocessors["table"]
    md.parser.blockprocessors.register(_Table(md.parser, table.config), "table", 75)
    ends = _Ends()
    md.inlinePatterns.register(_Backtick(_TICK_START), "backtick", 190)
    for cls, pattern, name, priority in (
        (_Reference, REFERENCE_RE, "reference", 170),
        (_Link, LINK_RE, "link", 160),
        (_Image, IMAGE_LINK_RE, "image_link", 150),
        (_ImageReference, IMAGE_REFERENCE_RE, "image_reference", 140),
        (_ShortReference, REFERENCE_RE, "short_reference", 130),
        (_ShortImageReference, IMAGE_REFERENCE_RE, "short_image_ref", 125),
    ):
        processor = cls(pattern, md)
        processor.ends = ends
        md.inlinePatterns.register(processor, name, priority)


class _Resume:
    """For one page's set of used ids: the id each starting slug last got. The set only grows
    while a page's headings are named, so every id tried before that one is still taken."""

    def __init__(self, ids: MutableSet[str]) -> None:
        self.ids = ids
        self.last: dict[str, str] = {}


_resume = _Resume(set())


def _unique(slug: str, ids: MutableSet[str]) -> str:
    """``toc.unique``, resumed: the same id, without re-trying ``_1`` … ``_k-1``."""
    global _resume
    resume = _resume
    if resume.ids is not ids:
        resume = _resume = _Resume(ids)
    found = _next_id(resume.last[slug]) if slug in resume.last else slug
    while found in ids or not found:
        found = _next_id(found)
    ids.add(found)
    resume.last[slug] = found
    return found


def _next_id(slug: str) -> str:
    m = toc.IDCOUNT_RE.match(slug)
    return f"{m.group(1)}_{int(m.group(2)) + 1}" if m else f"{slug}_1"


class _LinearToc(toc.TocTreeprocessor):
    # toc.TocTreeprocessor.run calls the module's unique(); this copy of it calls _unique, and
    # python-markdown is left as it is for any other user in the process.
    run = types.FunctionType(
        toc.TocTreeprocessor.run.__code__,
        {**vars(toc), "unique": _unique},
        "run",
        toc.TocTreeprocessor.run.__defaults__,
        toc.TocTreeprocessor.run.__closure__,
    )


class LinearTocExtension(toc.TocExtension):
    TreeProcessorClass = _LinearToc
