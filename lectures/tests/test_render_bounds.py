"""Pathological Markdown no longer holds a web worker for minutes: "[x](" * 20000 (80 KB) took
112 s in the admin preview, 2,000 backticks over 15 s. The linear processors
(lectures/markdown_linear.py) must give python-markdown's own HTML for every input, and text
over MAX_SOURCE_CHARS is an error at the box (preview: a JSON 400), in the reader's language."""

from __future__ import annotations

import multiprocessing
import random
from collections.abc import Iterator

import pytest
from django.conf import settings
from markdown.extensions.toc import TocExtension

from lectures import rendering
from lectures.models import Lecture, Section
from lectures.rendering import MAX_SOURCE_CHARS, RenderError, render_markdown

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
    # a one-column table's border read before the previous block's could leak in (a review):
    "Intro\n\n| Step |\n| --- |\n| one |\ntwo",
    "|a\n|-\nb",
    "| a |\n| - |\nb",
    "a|\n-|\nb",
    "x\ny\n\n|a\n|-\nb",
    # past _WALK_BRACKETS (64): the ends come from the table built once per paragraph
    "[" * 70 + "x" + "]" * 70 + "(u)",
    "[a](" + "(" * 70 + "u" + ")" * 69 + ") [b](c)",
    "[" * 65 + "x" + "]" * 64 + " [y](z)",
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


def _long_paragraphs() -> Iterator[str]:
    """Paragraphs with more brackets than _WALK_BRACKETS, nested and unbalanced, with links."""
    rng = random.Random(54)
    words = ["a", "中文", "\\[", "\\]", "\\(", "`c`", "[l](u)", '[t](u "x")', "![i](s)", "[r][x]"]
    for _ in range(150):
        parts = []
        for _ in range(rng.randint(2, 12)):
            opener, closer = rng.choice(["[]", "()"])
            inner = " ".join(rng.choice(words) for _ in range(rng.randint(0, 4)))
            run = opener * rng.randint(1, 90) + inner + closer * rng.randint(0, 90)
            parts.append(run + rng.choice(["", "(u)", "[x]", " "]))
        yield " ".join(parts) + "\n\n[x]: http://e.org"


@pytest.mark.parametrize("text", EDGES)
def test_the_linear_processors_draw_what_python_markdown_draws(monkeypatch, text) -> None:
    assert render_markdown(text, ids="t-").html == _stock(monkeypatch, text)


def test_the_same_html_on_random_markdown_punctuation(monkeypatch) -> None:
    for text in _random_texts():
        assert render_markdown(text, ids="t-").html == _stock(monkeypatch, text), repr(text)


def test_the_same_html_on_paragraphs_past_the_bracket_walk(monkeypatch) -> None:
    for text in _long_paragraphs():
        assert render_markdown(text, ids="t-").html == _stock(monkeypatch, text), repr(text)


def _renders_within(seconds: float, text: str) -> bool:
    """Whether render_markdown(text) ends, without error, within ``seconds``: in a forked child,
    killed past it (a signal cannot stop a regex that back-tracks inside the C matcher)."""
    child = multiprocessing.get_context("fork").Process(target=render_markdown, args=(text,))
    child.start()
    child.join(seconds)
    if child.is_alive():
        child.kill()
        child.join()
        return False
    return child.exitcode == 0


@pytest.mark.parametrize(
    ("text", "seconds"),
    [
        ("[x](" * 7_000, 8),  # every link's "(" walked the rest of the paragraph: O(n²)
        ("[" * 20_000, 10),  # every "[" walked the rest for its "]": O(n²)
        ("`" * 3_000, 10),  # BACKTICK_RE's back-reference: O(n³)
        ("# a\n" * 7_000, 30),  # the k-th "# a" tried _1 … _k; the rest of the block split again
    ],
    ids=["unclosed-links", "brackets", "backticks", "same-headings"],
)
def test_pathological_markdown_renders_in_time(text, seconds) -> None:
    # Without lectures/markdown_linear.py these took 18 s (the links), 82 s (the headings), and
    # minutes; with it under 0.3 s, but the headings 4.4 s, python-markdown's block parser
    # still being O(n²) there. The limits are margins for a loaded machine, not timings.
    assert len(text) <= MAX_SOURCE_CHARS
    assert _renders_within(seconds, text)


def test_text_over_the_limit_is_refused_at_the_line_where_it_passes() -> None:
    render_markdown("a" * MAX_SOURCE_CHARS)
    text = "第一行\n" + "a" * MAX_SOURCE_CHARS
    with pytest.raises(RenderError) as exc:
        render_markdown(text)
    assert exc.value.line == 2
    assert exc.value.at_line() == (
        f"第 2 行：文本有 {len(text)} 个字符，单次渲染最多 {MAX_SOURCE_CHARS} 个字符；请缩短或拆分。"
    )


@pytest.mark.django_db
def test_the_preview_says_so_in_english_with_a_400(client_instructor) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    text = "x" * (MAX_SOURCE_CHARS + 1)
    response = client_instructor.post("/admin/lectures/section/preview/", {"markdown": text})
    assert response.status_code == 400
    assert response.json() == {
        "error": f"Line 1: The text has {MAX_SOURCE_CHARS + 1} characters; one render takes at "
        f"most {MAX_SOURCE_CHARS}. Shorten or split it."
    }


@pytest.mark.django_db
def test_saving_too_long_a_section_is_an_error_at_the_box_with_the_text_kept(
    client_instructor,
) -> None:
    lecture = Lecture.objects.create(number=5, title="Triton", overview_md="…", intro_md="引言。")
    section = Section.objects.create(
        lecture=lecture, number="5.1", slug="sec-5-1", title="块", body_md="原文。"
    )
    typed = "新的一段。" * (MAX_SOURCE_CHARS // 5 + 1)
    response = client_instructor.post(
        f"/admin/lectures/section/{section.pk}/change/",
        {"title": "块", "title_en": "", "body_md": typed},
    )
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form.errors["body_md"][0].startswith("第 1 行：文本有 ")
    assert form["body_md"].value() == typed  # shown again in the box, not lost
    section.refresh_from_db()
    assert section.body_md == "原文。"


@pytest.mark.django_db
def test_saving_too_long_an_announcement_is_an_error_at_the_box(client_instructor) -> None:
    response = client_instructor.post(
        "/admin/dashboard/announcement/add/",
        {
            "title": "通知",
            "body_md": "x" * (MAX_SOURCE_CHARS + 1),
            "starts_at_0": "2026-03-01",
            "starts_at_1": "08:00:00",
            "expires_at_0": "2026-03-02",
            "expires_at_1": "08:00:00",
        },
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["body_md"][0].startswith("第 1 行：文本有 ")
