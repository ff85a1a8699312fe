"""The staff page of a person lists their lab submissions with the score each counts for. A
submission whose score a TA changed ("this submission only", 7.5) was listed with its automatic
score, 0.00, while the submission's own page and the gradebook counted 7.50."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from gradinglab.services.results import submission_score_override
from gradinglab.tests.labkit import make_assignment, scored_submission
from staffdesk.tests.test_person_practice_run import person_submissions

pytestmark = pytest.mark.django_db


def _line(client, student, sub, lang: str) -> str:
    return person_submissions(client, student, lang)[f"/lab/submissions/{sub.pk}/"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [("zh-hans", "7.50 / 10.00 · 已人工改分"), ("en", "7.50 / 10.00 · changed by staff")],
)
def test_a_changed_score_is_listed_as_it_counts(client_ta, student_a, ta, lang, said) -> None:
    sub = scored_submission(make_assignment(), student_a, "0", timezone.now())
    submission_score_override(submission=sub, points=Decimal("7.5"), actor=ta, reason="部分正确")
    assert said in _line(client_ta, student_a, sub, lang)


def test_an_automatic_score_is_listed_as_it_is(client_ta, student_a) -> None:
    sub = scored_submission(make_assignment(), student_a, "10", timezone.now())
    line = _line(client_ta, student_a, sub, "zh-hans")
    assert line.endswith("10.00 / 10.00"), line
