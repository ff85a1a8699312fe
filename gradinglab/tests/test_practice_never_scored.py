"""submission_create's claim: a practice run ("run public tests") is never scored. A stored result
leaves it unscored (services.results.result_finish); a rescore of the assignment must too, or its
public tests on the CPU path count in the gradebook."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook.models import Grade
from gradinglab.models import Submission, SubmissionResult
from gradinglab.services.rescore import regrade_apply, regrade_plan
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db


def test_a_rescore_leaves_a_practice_run_unscored(student_a, instructor) -> None:
    assignment = labkit.make_assignment()
    now = timezone.now()
    practice = Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source="# practice",
        sha256="0" * 64, created_at=now - timedelta(minutes=1), status="accepted",
        practice=True, counts_as_attempt=False, score=None,
    )  # fmt: skip
    SubmissionResult.objects.create(
        submission=practice,
        round=practice.round,
        document=labkit.load_doc("accepted"),
        received_at=now,
    )
    assert regrade_plan(assignment=assignment) == []
    regrade_apply(assignment=assignment, actor=instructor, dry_run=False)
    practice.refresh_from_db()
    assert practice.score is None
    assert not Grade.objects.filter(item__key=assignment.grade_item_key, student=student_a).exists()
