"""A line longer than precheck.MAX_LINE_CHARS is refused before KernelGuard reads it: its time grows
with the square of a line's length, and a 256 KiB comment line held the submit request for half an
hour."""

from __future__ import annotations

import pytest

from gradinglab import precheck
from gradinglab.models import Submission
from gradinglab.precheck import MAX_LINE_CHARS
from gradinglab.tests.labkit import correct_source, make_assignment, purge, submit

pytestmark = pytest.mark.django_db


def test_a_very_long_line_is_refused_unread_with_its_line_number(client_a, monkeypatch) -> None:
    make_assignment()
    read = []  # what KernelGuard was given: nothing, for a source it refuses unread
    monkeypatch.setattr(precheck, "check_kernelguard", lambda source: read.append(source) or [])
    source = correct_source() + "\n# " + "x" * 30_000 + "\n"
    response = submit(client_a, source=source, backend="triton")
    assert response.status_code == 400 and not read
    line = source.count("\n")
    wanted = f"第 {line} 行：这一行超过 {MAX_LINE_CHARS} 个字符；请拆成几行再提交"
    assert wanted in response.json()["detail"]
    assert not Submission.objects.exists()


def test_a_line_at_the_limit_is_checked_as_usual(client_a, django_capture_on_commit_callbacks):
    make_assignment()
    purge()
    source = correct_source() + "\n#" + "x" * (MAX_LINE_CHARS - 1) + "\n"
    with django_capture_on_commit_callbacks(execute=True):
        assert submit(client_a, source=source, backend="triton").status_code == 201
    purge()
