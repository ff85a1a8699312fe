"""Search snippets are plain readable text: no Markdown or LaTeX markup, the match marked, in the
Chinese and the English UI. A snippet is a slice of the stored search text (lectures/plaintext.py),
so the text itself is checked on the real notes too."""

from __future__ import annotations

import re

import pytest
from django.conf import settings

from lectures.plaintext import latex_text, plain_text

pytestmark = pytest.mark.django_db

SNIPPET_RE = re.compile(r'<p class="search-snippet"[^>]*>(?P<html>.*?)</p>', re.S)
# What a reader must never see in a snippet: emphasis, code ticks, math delimiters, LaTeX
# commands, admonition headers, heading hashes, table pipes and rules, anchors, figure markers.
MARKUP_RE = re.compile(r"\*\*|`|\$|\\[A-Za-z]+|!!!|(?:^|\s)#{1,6}\s|\||---|\{#|!figure|\]\(")


def _snippets(client, query: str, lang: str) -> list[str]:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    resp = client.get("/lectures/search/", {"q": query})
    assert resp.status_code == 200
    return [m["html"] for m in SNIPPET_RE.finditer(resp.content.decode())]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize(
    "query",
    # an admonition title, a term inside a table, a formula's neighbourhood, code in backticks
    ["编者补充", "原子累加", "GeLU", "Online Softmax", "bank conflict", "MST", "syncthreads"],
)
def test_snippets_show_plain_text_with_the_match_marked(imported, client_a, query, lang) -> None:
    snippets = _snippets(client_a, query, lang)
    assert snippets, f"no hits for {query!r}"  # (a section with no text of its own has none)
    for html in snippets:
        text = re.sub(r"</?mark>", "", html)
        assert not MARKUP_RE.search(text), f"{query!r} ({lang}): markup in snippet {text!r}"
        assert "<mark>" in html, f"{query!r} ({lang}): nothing marked in {html!r}"


def test_stored_search_text_of_every_section_has_no_markup(imported) -> None:
    from lectures.models import Section

    fenced = re.compile(r"^ *```.*?^ *```", re.S | re.M)  # code may hold | and \n: not checked
    for s in Section.objects.all():
        prose = plain_text(fenced.sub("", s.body_md))
        assert not MARKUP_RE.search(prose), (s.number, MARKUP_RE.search(prose), prose[:200])


def test_markdown_constructs_become_readable_text() -> None:
    md = (
        '!!! note "编者补充"\n'
        "    | 思路 | 步数 |\n    |---|---|\n    | 树形归约 | $\\lceil \\log_2 N \\rceil$ 轮 |\n\n"
        "## 小结 {#sec-x}\n"
        "- **关键**：用 `__syncthreads()` 同步，*不要* 忘记；索引 `idx = 2*s*tid`。\n"
        "> 见 [第 3.4 节](sec:3.4)。\n"
        "!figure reduction-tree\n"
        "```cuda\nint a = b * c;  // **not** emphasis in code\n```\n"
        "转义：\\*号与 \\| 竖线。"
    )
    assert plain_text(md) == (
        "编者补充 思路 步数 树形归约 ⌈log_2 N⌉ 轮 小结 关键：用 __syncthreads() 同步，不要 忘记；"
        "索引 idx = 2*s*tid。 见 第 3.4 节。 int a = b * c; // **not** emphasis in code "
        "转义：*号与 | 竖线。"
    )


@pytest.mark.parametrize(
    ("latex", "text"),
    [
        (r"\frac{K-1}{M+K-1}", "(K-1)/(M+K-1)"),
        (r"\mathrm{GeLU}(X_1A_1) \neq \mathrm{GeLU}(X_2A_2)", "GeLU(X_1A_1) ≠ GeLU(X_2A_2)"),
        (r"2 \cdot B \cdot C_{out}", "2 · B · C_out"),
        (r"\lceil\log_2 p\rceil(\alpha+n\beta)", "⌈log_2 p⌉(α+nβ)"),
        (r"\sqrt{d_k}", "√(d_k)"),
    ],
)
def test_formulas_are_spelled_out(latex: str, text: str) -> None:
    assert latex_text(latex) == text
