"""`Problem.publishable` (read per row: the admin's mark, the publish gate) and
`Assignment.objects.published_unchecked()` (the staff dashboard's warning list, a query) state one
rule twice, in Python and in SQL; they must agree in every state a package can be in."""

from __future__ import annotations

import pytest

from gradinglab.models import Assignment, Problem
from gradinglab.tests.labkit import make_assignment

# (content_sha256, checked_sha256) -> publishable
STATES = [
    (("a" * 64, "a" * 64), True),  # checked at its current content
    (("b" * 64, "a" * 64), False),  # changed after its last full check
    (("a" * 64, ""), False),  # never checked
    (("", ""), False),  # no content recorded (both empty: equal, but not checked)
]


@pytest.mark.django_db
@pytest.mark.parametrize(("hashes", "publishable"), STATES)
def test_the_property_and_the_query_agree(hashes, publishable) -> None:
    assignment = make_assignment()
    content, checked = hashes
    Problem.objects.filter(pk=assignment.problem_id).update(
        content_sha256=content, checked_sha256=checked
    )
    problem = Problem.objects.get(pk=assignment.problem_id)
    assert problem.publishable is publishable
    listed = Assignment.objects.published_unchecked().filter(pk=assignment.pk).exists()
    assert listed is not publishable
