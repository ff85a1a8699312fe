"""Markdown rendering: math to MathML (with a readable fallback), Pygments CSS we serve, links."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lectures.rendering import pygments_css, pygments_dark_css, render_markdown

STATIC_CSS = Path(__file__).resolve().parent.parent / "static" / "lectures" / "pygments.css"
DARK_CSS = (
    Path(__file__).resolve().parents[2] / "static" / "vendor" / "pygments" / "github-dark.css"
)


def test_math_becomes_mathml_and_code_keeps_its_dollars() -> None:
    out = render_markdown(
        "面积 $46{,}225\\ \\text{mm}^2$\n\n$$s = \\frac{1}{1-p}$$\n\n```c\nint $x;\n```\n"
    )
    assert out.html.count("<math") == 2 and 'display="block"' in out.html
    assert "$x" in out.html.split("<pre")[1]  # a $ inside code stays code
    assert "$" not in out.html.split('<div class="codehilite"')[0]


def test_unparsable_formula_renders_as_code_not_raw_dollars() -> None:
    out = render_markdown("坏公式 $x^{$ 之后的文字")
    assert out.math_fallbacks == ["x^{"]
    assert '<code class="math-fallback" title="LaTeX">x^{</code>' in out.html
    assert "$" not in out.html


def test_display_math_may_span_lines() -> None:
    """A long $$…$$ formula wrapped over two lines of the source (two lab statements do) was left
    as raw LaTeX, and Markdown turned its subscripts into <em>."""
    out = render_markdown(
        "前文：\n\n$$\\mu_i = \\frac{1}{N}\\sum_j x_{ij},\\quad\n\\text{out}_{ij} = x_{ij}.$$\n"
    )
    assert out.html.count("<math") == 1 and 'display="block"' in out.html
    assert "$" not in out.html and "<em>" not in out.html and not out.math_fallbacks


CONTENT = Path(__file__).resolve().parents[2] / "content"


@pytest.mark.parametrize(
    "path", sorted([*CONTENT.glob("lectures/*.md"), *CONTENT.glob("course/*.md")]), ids=str
)
def test_every_formula_of_the_course_content_renders(path: Path) -> None:
    out = render_markdown(path.read_text(encoding="utf-8"))
    prose = re.sub(r"<(pre|code)\b.*?</\1>", "", out.html, flags=re.S)
    assert not out.math_fallbacks and "$$" not in prose, out.math_fallbacks


def test_markdown_is_not_applied_inside_math() -> None:
    out = render_markdown("$a_1 * b_2 * c$ 和 $d_1$")
    assert "<em>" not in out.html and out.html.count("<math") == 2


def test_served_pygments_stylesheet_is_current() -> None:
    assert STATIC_CSS.read_text() == pygments_css()
    assert DARK_CSS.read_text().endswith(pygments_dark_css())  # the dark theme's code colours


def test_section_links_resolve_through_the_given_function() -> None:
    out = render_markdown("[见 3.4](sec:3.4)", link=lambda n: f"/lectures/3/#sec-{n}")
    assert 'href="/lectures/3/#sec-3.4"' in out.html


def test_mlir_blocks_are_highlighted() -> None:
    out = render_markdown("```mlir\n%y = linalg.matmul ins(%x : tensor<4xf32>)\n```\n")
    assert 'data-lang="mlir"' in out.html and '<span class="nv">%y</span>' in out.html


def test_text_mode_escapes_in_math_show_their_characters() -> None:
    """Lecture 5 showed "BLOCK\\_SIZE": latex2mathml copies \\text{...} as written, escapes too."""
    out = render_markdown(
        r"处理 $\text{BLOCK\_SIZE} / \text{线程数}$ 份；$\text{a \% b \# c \& d}$"
    )
    assert "<mtext>BLOCK_SIZE</mtext>" in out.html
    assert not any(f"\\{c}" in out.html for c in "_%#&")
    assert "%" in out.html and "#&nbsp;c" in out.html and "&amp;" in out.html
