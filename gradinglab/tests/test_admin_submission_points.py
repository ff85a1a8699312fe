"""The admin's submission list shows the score each submission counts for. After a TA changed
submission #1 to 7.5 ("this submission only"), the list's Points column still said 0.00, the
automatic score, while the student's page, the item and the staff desk counted 7.50; the column
now shows the changed score, marked as changed."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.utils import timezone

from gradinglab.services.results import submission_score_override
from gradinglab.tests.labkit import make_assignment, scored_submission

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("lang", "changed"), [("zh-hans", "7.50（已人工改分）"), ("en", "7.50 (changed by staff)")]
)
def test_the_list_shows_a_changed_score(client_ta, student_a, ta, lang, changed) -> None:
    assignment = make_assignment()
    sub = scored_submission(assignment, student_a, "0", timezone.now())
    scored_submission(assignment, student_a, "10", timezone.now())
    submission_score_override(submission=sub, points=Decimal("7.5"), actor=ta, reason="部分正确")
    client_ta.cookies["django_language"] = lang
    page = client_ta.get("/admin/gradinglab/submission/").content.decode()
    cells = re.findall(r'<td class="field-points_shown">([^<]*)</td>', page)
    assert sorted(cells) == sorted([changed, "10.00"]), cells


def test_the_column_sorts_as_it_shows(client_ta, student_a, ta) -> None:
    """It sorted by the automatic score (a review): 0 changed to 9 came before 5 on the way up."""
    assignment = make_assignment()
    changed = scored_submission(assignment, student_a, "0", timezone.now())
    scored_submission(assignment, student_a, "5", timezone.now())
    submission_score_override(submission=changed, points=Decimal("9"), actor=ta, reason="部分正确")
    page = client_ta.get("/admin/gradinglab/submission/").content.decode()
    column = re.search(r'column-points_shown">\s*<div class="text"><a href="\?o=(\d+)', page)[1]
    cells = {}
    for order in (str(column), f"-{column}"):
        page = client_ta.get("/admin/gradinglab/submission/", {"o": order}).content.decode()
        found = re.findall(r'<td class="field-points_shown">([^<]*)</td>', page)
        cells[order] = [cell[:4] for cell in found]
    assert cells == {str(column): ["5.00", "9.00"], f"-{column}": ["9.00", "5.00"]}, cells
