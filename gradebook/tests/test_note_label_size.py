"""On a phone each row of 我的成绩 is a card of labelled lines (`stack-on-phone`, site.css): the
label of the note line (说明 / Note) was smaller than every other label of the card. The label is
the cell's ``::before``, so it took the note cell's own smaller font (`.reason`, gradebook.css).
Labels are sized from the root, so a cell's font size changes its value only."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from gradebook.services import grade_override

# A rule of a stylesheet, innermost: its selector (what stands before the "{") and declarations.
RULE_RE = re.compile(r"([^{}]+)\{([^{}]*)\}")
FONT_SIZE_RE = re.compile(r"font-size:\s*([0-9.]+)(rem|em|px|pt|%)")


def _font_sizes(stylesheet: str, selector: str) -> list[tuple[str, str]]:
    """The font sizes declared by the rules whose selector list has `selector`."""
    text = Path(finders.find(stylesheet)).read_text(encoding="utf-8")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    sizes = []
    for selectors, declarations in RULE_RE.findall(text):
        if selector in (s.strip() for s in selectors.split(",")):
            sizes += FONT_SIZE_RE.findall(declarations)
    return sizes


@pytest.mark.django_db
def test_the_note_label_is_the_size_of_the_other_labels(client_a, student_a, ta, make_item) -> None:
    item = make_item("lab:1", max_points=100)
    grade_override(student=student_a, item=item, points=90, actor=ta, reason="补交了报告")
    page = client_a.get("/grades/").content.decode()
    note = re.search(r'<td class="([^"]*)" data-content data-label="说明">[^<]*补交了报告', page)
    assert note, "the card's note line is a labelled cell holding the override's reason"
    # The note cell has a font size of its own (smaller than the card's other cells)...
    assert note.group(1) == "reason" and _font_sizes("gradebook/gradebook.css", ".reason")
    # ...which its label must not take: the labels' size is the root's, the same on every line.
    assert _font_sizes("css/site.css", "table.stack-on-phone td::before") == [("1", "rem")]
