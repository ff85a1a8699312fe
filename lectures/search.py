"""Section search that works for Chinese without word segmentation, on PostgreSQL and SQLite.

A query is cut into units: each whitespace-separated token, and for a Chinese token longer than two
characters its overlapping character bigrams. The database narrows candidates with substring
(``icontains``) filters; Python keeps sections holding most units and ranks them: the whole query
in the section title beats a title containing every unit, beats sub-heading matches, beats body
matches; ties go to the section that uses the term most, then to course order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import reduce
from operator import or_

from django.db.models import Q
from django.utils.html import escape

from accounts.language import in_page_language
from lectures.models import Section

CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
MAX_QUERY_CHARS = 100  # longer input is cut: no sensible query is longer
MAX_RESULTS = 30
SNIPPET_RADIUS = 40  # characters of context on each side of the first hit
BODY_COUNT_CAP = 20  # beyond 20 mentions a section is not "more relevant"
TIER_WEIGHT = 10_000  # above anything the counts below can add up to
# Share of query units (tokens / bigrams) a section must contain: all of a one- or two-unit
# query, most of a longer Chinese phrase whose bigrams need not all be adjacent in the text.
MIN_COVERAGE = 0.6


@dataclass
class SearchHit:
    section: Section
    score: int
    title_html: str
    snippet_html: str
    title_lang: str  # "en" for a section's English title (English pages), else "zh-CN"


def normalize_query(raw: str) -> str:
    return re.sub(r"\s+", " ", raw or "").strip()[:MAX_QUERY_CHARS]


def query_units(query: str) -> list[str]:
    units: list[str] = []
    for token in query.lower().split(" "):
        if CJK_RE.search(token) and len(token) > 2:
            units += [token[i : i + 2] for i in range(len(token) - 1)]
        elif token:
            units.append(token)
    return list(dict.fromkeys(units))


def _unit_filter(unit: str) -> Q:
    fields = ("search_title", "search_title_en", "search_headings", "search_body")
    return reduce(or_, (Q(**{f"{name}__icontains": unit}) for name in fields))


def score_section(section: Section, query: str, units: list[str]) -> int:
    """Tier (title phrase > title units > sub-heading > body) first, then how much the body uses
    the term. Sub-heading hits only count when the title does not match: a section named after
    the term beats one that merely has a sub-heading about it."""
    q = query.lower()
    title, headings, body = (
        _titles(section),
        section.search_headings.lower(),
        section.search_body.lower(),
    )
    if q in title:
        tier = 3
    elif all(u in title for u in units):
        tier = 2
    elif q in headings or all(u in headings for u in units):
        tier = 1
    else:
        tier = 0
    score = tier * TIER_WEIGHT
    if tier < 2:
        score += 100 * sum(u in title for u in units) + 30 * sum(u in headings for u in units)
    score += min(body.count(q), BODY_COUNT_CAP) * 5
    return score + sum(min(body.count(u), BODY_COUNT_CAP) for u in units)


def _titles(section: Section) -> str:
    """The title a query matches, in either language: "Data Races" finds 5.11 归约中的数据竞争."""
    return f"{section.search_title}\n{section.search_title_en}".lower()


def coverage(section: Section, units: list[str]) -> float:
    text = f"{_titles(section)} {section.search_headings} {section.search_body}".lower()
    return sum(u in text for u in units) / len(units)


def highlight(text: str, units: list[str]) -> str:
    """HTML-escaped ``text`` with every unit wrapped in ``<mark>``."""
    if not units:
        return escape(text)
    pattern = re.compile("|".join(re.escape(u) for u in sorted(units, key=len, reverse=True)), re.I)
    out, pos = [], 0
    for m in pattern.finditer(text):
        out.append(escape(text[pos : m.start()]))
        out.append(f"<mark>{escape(m.group(0))}</mark>")
        pos = m.end()
    out.append(escape(text[pos:]))
    return "".join(out)


def snippet(text: str, query: str, units: list[str]) -> str:
    lower = text.lower()
    at = lower.find(query.lower())
    if at < 0:
        hits = [i for u in units if (i := lower.find(u)) >= 0]
        at = min(hits) if hits else 0
    start = max(0, at - SNIPPET_RADIUS)
    end = min(len(text), at + len(query) + SNIPPET_RADIUS)
    prefix, suffix = ("…" if start > 0 else ""), ("…" if end < len(text) else "")
    return prefix + highlight(text[start:end], units) + suffix


def search_sections(raw_query: str, limit: int = MAX_RESULTS) -> list[SearchHit]:
    query = normalize_query(raw_query)
    units = query_units(query)
    if not units:
        return []
    candidates = Section.objects.filter(reduce(or_, (_unit_filter(u) for u in units)))
    candidates = candidates.select_related("lecture").order_by("lecture__number", "order")
    ranked = sorted(
        (
            (score_section(s, query, units), i, s)
            for i, s in enumerate(candidates)
            if coverage(s, units) >= MIN_COVERAGE
        ),
        key=lambda t: (-t[0], t[1]),
    )
    return [_hit(s, score, query, units) for score, _, s in ranked[:limit]]


def _hit(section: Section, score: int, query: str, units: list[str]) -> SearchHit:
    english = in_page_language("", section.search_title_en)
    return SearchHit(
        section=section,
        score=score,
        title_html=highlight(f"{section.number} {english or plain_title(section)}", units),
        snippet_html=snippet(section.search_body or section.search_headings, query, units),
        title_lang="en" if english else "zh-CN",
    )


def plain_title(section: Section) -> str:
    return section.search_title.removeprefix(f"{section.number} ")
