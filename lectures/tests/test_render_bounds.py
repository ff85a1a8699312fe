"""Pathological Markdown no longer holds a web worker for minutes: "[x](" * 20000 (80 KB) took
112 s in the admin preview, 2,000 backticks over 15 s. The linear processors
(lectures/markdown_linear.py) must give python-markdown's own HTML for every input."""

from __future__ import annotations

import random
import signal
from collections.abc import Iterator

import pytest
from markdown.extensions.toc import TocExtension

from lectures import rendering
from lectures.rendering import render_markdown

# Characters that open or close something in Markdown, and a few that do not.
ALPHABET = "[]()`\\\"'!<>#*_-:|{} \n\naxy1"
EDGES = [
    "``a`",
    "`a``b`",
    "\\\\`a`",
    "\\`a`",
    "a ``` b `` c ` d",
    "`` ` ``",
    "[a](b)",
    "[a]( b )",
    '[a](b "t")',
    "[a](b 'x) y')",
    "[a [b] c](d (e) f)",
    "![i](s) [r][x] [s]\n\n[x]: http://e.org",
    "[a](<b c> 't')",
    "# a\n# a\n# a_1\n# a\n# \n#",
    "# a {#a_2}\n# a\n# a\n# a",
    "| a |\n| - |\n| b |",
    "a | b\n- | -\nc | d",
    "|a\n|-\n|b",
]


def _stock(monkeypatch: pytest.MonkeyPatch, text: str) -> str:
    """The HTML with python-markdown's own processors (what the renderer did before)."""
    with monkeypatch.context() as m:
        m.setattr(rendering, "use_linear", lambda md: None)
        m.setattr(rendering, "LinearTocExtension", TocExtension)
        return render_markdown(text, ids="t-").html


def _random_texts() -> Iterator[str]:
    rng = random.Random(20261207)
    for _ in range(1500):
        yield "".join(rng.choice(ALPHABET) for _ in range(rng.randint(1, 80)))


@pytest.mark.parametrize("text", EDGES)
def test_the_linear_processors_draw_what_python_markdown_draws(monkeypatch, text) -> None:
    assert render_markdown(text, ids="t-").html == _stock(monkeypatch, text)


def test_the_same_html_on_random_markdown_punctuation(monkeypatch) -> None:
    for text in _random_texts():
        assert render_markdown(text, ids="t-").html == _stock(monkeypatch, text), repr(text)


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fails a test still rendering after 30 s. Each input below took from 15 s to minutes
    before (see the module docstring) and takes well under a second now: the margin is for a
    loaded machine, not a timing to assert."""

    def expire(*_args) -> None:
        raise TimeoutError("render_markdown is still running after 30 s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, 30)
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(
    "text",
    [
        "[x](" * 12_000,  # every link's "(" walked the rest of the paragraph: O(n²)
        "[" * 20_000,  # every "[" walked the rest for its "]": O(n²)
        "`" * 3_000,  # BACKTICK_RE's back-reference: O(n³)
        "# a\n" * 10_000,  # the k-th "# a" tried _1 … _k; the rest of the block split again
    ],
    ids=["unclosed-links", "brackets", "backticks", "same-headings"],
)
def test_pathological_markdown_renders_in_time(deadline, text) -> None:
    render_markdown(text)
