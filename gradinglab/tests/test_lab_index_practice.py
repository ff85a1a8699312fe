"""The lab list's 我的状态 is the student's submissions', not a public-test run's. A run of the
public tests (no attempt, no score) showed as 答案错误 · 0 次提交 on a lab never submitted, and a run
after a submission hid the submission's verdict behind the run's."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from gradinglab.models import Submission
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def _run(assignment, student, status: str, minutes_ago: int, practice: bool) -> None:
    Submission.objects.create(
        assignment=assignment, student=student, backend="triton", source=status,
        sha256=status.ljust(64, "0"), status=status, practice=practice,
        counts_as_attempt=not practice, created_at=timezone.now() - timedelta(minutes=minutes_ago),
    )  # fmt: skip


def _my_status(client) -> str:
    page = client.get("/lab/").content.decode()
    cell = re.search(r'<td data-label="我的状态">(.*?)</td>', page, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip()


def test_a_public_test_run_alone_is_not_a_submission(client_a, student_a) -> None:
    _run(make_assignment(), student_a, "wrong_answer", 1, practice=True)
    assert _my_status(client_a) == "未提交"


def test_a_later_public_test_run_leaves_the_submissions_verdict(client_a, student_a) -> None:
    assignment = make_assignment()
    _run(assignment, student_a, "accepted", 5, practice=False)
    _run(assignment, student_a, "wrong_answer", 1, practice=True)
    assert _my_status(client_a) == "通过 · 1 次提交"
