"""The lab index orders labs outside the course list by their first section ("sec-5-9"); a
section whose numbers are digits to `str.isdigit()` but not to `int()` ("sec-²-1", a typo in a
problem.yaml) sorts last, never as a server error on every student's lab index."""

from __future__ import annotations

from gradinglab.models import Assignment, Problem
from gradinglab.selectors import COURSE_ORDER, _course_order


def _order(sections: list[str]) -> tuple[int, int, int]:
    return _course_order(Assignment(problem=Problem(slug="odd-lab", sections=sections)))


def test_an_odd_section_number_sorts_last() -> None:
    assert _order(["sec-²-1"]) == (len(COURSE_ORDER), 999, 999)
    assert _order(["sec-²-1", "sec-5-9"]) == (len(COURSE_ORDER), 5, 9)
