"""check_markdown (the import's check of every piece before it writes any) refuses exactly what
render_markdown refuses, at the same line, without rendering."""

from __future__ import annotations

import pytest

from lectures.content import parse_lecture
from lectures.rendering import MAX_SOURCE_CHARS, RenderError, check_markdown, render_markdown
from lectures.tests.conftest import CONTENT

REFUSED = [
    "引言。\n\n```python\nx = 1\n",  # an unclosed fence
    "一段。\n!figure no-such-figure\n",  # a figure that does not exist
    "第一行\n" + "a" * MAX_SOURCE_CHARS,  # over the length limit
    "```\n```\n\n```c\nnever closed\n",  # the second fence left open
]


@pytest.mark.parametrize("text", REFUSED, ids=["fence", "figure", "length", "second-fence"])
def test_check_refuses_what_render_refuses_at_the_same_line(text: str) -> None:
    with pytest.raises(RenderError) as rendered:
        render_markdown(text)
    with pytest.raises(RenderError) as checked:
        check_markdown(text)
    assert checked.value.at_line() == rendered.value.at_line()


def test_check_passes_every_piece_of_the_notes() -> None:
    pieces = 0
    for path in sorted((CONTENT / "lectures").glob("lecture-*.md")):
        lecture = parse_lecture(path)  # checks every piece with check_markdown
        for md in [lecture.intro_md, *(s.body_md for s in lecture.sections)]:
            render_markdown(md)  # and each renders
            pieces += 1
    assert pieces > 100
