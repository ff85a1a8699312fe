"""Must-hold 4: search finds the right section first, for Chinese and English terms.

"Right" is decided from the notes: the section that is about the term (its title names it and
its text explains it), not one that merely mentions it:
- 归约 -> 3.1 归约问题与两条基本思路 (defines reduction: "归约（reduction）指用一个可结合的二元运算…")
- 占用率 -> 2.21 占用率：限制因素与权衡 (defines it: "三大因素…的最小值决定…活跃线程数（即占用率）")
- bank conflict -> 3.4 优化一：避免 bank conflict (explains when accesses serialise; 2.29 is one line)
- FlashAttention -> 4.11 FlashAttention 核心思想
- ZeRO -> 9.1.4 ZeRO：消除 DP 的显存冗余
"""

from __future__ import annotations

import re

import pytest

from lectures.search import query_units, search_sections

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("query", "number"),
    [
        ("归约", "3.1"),
        ("占用率", "2.21"),
        ("bank conflict", "3.4"),
        ("Bank Conflict", "3.4"),
        ("FlashAttention", "4.11"),
        ("ZeRO", "9.1.4"),
    ],
)
def test_right_section_comes_first(imported, client_a, query: str, number: str) -> None:
    resp = client_a.get("/lectures/search/", {"q": query})
    assert resp.status_code == 200
    links = re.findall(r'class="search-hit-link" href="([^"]+)"', resp.content.decode())
    lecture = number.split(".")[0]
    assert links[0] == f"/lectures/{lecture}/#sec-{number.replace('.', '-')}"


@pytest.mark.parametrize("query", ["流水线", "All-Reduce", "归约", "占用率"])
def test_terms_without_spaces_match_inside_running_text(imported, query: str) -> None:
    hits = search_sections(query)
    assert hits
    for hit in hits:
        text = f"{hit.section.search_title} {hit.section.search_headings} {hit.section.search_body}"
        assert query.lower() in text.lower()


def test_longer_chinese_phrase_matches_by_bigrams(imported) -> None:
    # "共享内存冲突" never occurs verbatim; its bigrams 共享/内存/冲突 do, in the bank sections.
    assert query_units("共享内存冲突") == ["共享", "享内", "内存", "存冲", "冲突"]
    numbers = [h.section.number for h in search_sections("共享内存冲突")]
    assert "2.29" in numbers[:3]


def test_snippet_is_highlighted_and_escaped(imported, client_a) -> None:
    html = client_a.get("/lectures/search/", {"q": "bank conflict"}).content.decode()
    first = html[html.index('class="search-hit"') :]
    snippet = first[first.index('class="search-snippet"') :][:600]
    assert "<mark>bank</mark> <mark>conflict</mark>" in snippet
    html = client_a.get("/lectures/search/", {"q": "<script>alert(1)</script>"}).content.decode()
    assert "<script>alert(1)</script>" not in html


def test_search_needs_login_and_handles_empty_or_unknown_queries(imported, client) -> None:
    assert client.get("/lectures/search/", {"q": "归约"}).status_code == 302
    assert search_sections("") == [] and search_sections("   ") == []
    assert search_sections("量子引力弦论") == []


def test_title_match_outranks_body_mentions(imported) -> None:
    hits = search_sections("流水线")
    title_hits = [h for h in hits if "流水线" in h.section.search_title]
    assert title_hits and hits[: len(title_hits)] == title_hits
