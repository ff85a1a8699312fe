"""An extension moves the student's whole submission window, not only the date they are shown.

The lab accepted or refused a submission by the assignment's own dates: a student granted two
extra days was told "已过截止时间" on the first of them (no late window), and their work inside the
extension was marked late. The window now moves by the extension (gradinglab.selectors.personal_dues,
the gradebook's rule), late window included."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook.services import extension_grant
from gradinglab.services.results import assignment_grade_item
from gradinglab.services.submissions import SubmissionClosed, submission_create
from gradinglab.tests.labkit import correct_source, make_assignment

pytestmark = pytest.mark.django_db


def _lab(instructor, student, *, late_days: int | None):
    due = timezone.now() - timedelta(days=10)
    late_until = due + timedelta(days=late_days) if late_days is not None else None
    assignment = make_assignment(due_at=due, late_until=late_until)
    item = assignment_grade_item(assignment)
    extension_grant(student=student, item=item, actor=instructor, extra_days=2, reason="病假")
    return assignment, due


def _submit(assignment, student, now):
    return submission_create(
        student=student, assignment=assignment, backend="triton", source=correct_source(), now=now
    )


def test_inside_the_extension_is_accepted_and_on_time(instructor, student_a) -> None:
    assignment, due = _lab(instructor, student_a, late_days=None)
    submission = _submit(assignment, student_a, due + timedelta(days=1))
    assert submission.late is False


def test_the_late_window_moves_with_the_extension(instructor, student_a) -> None:
    assignment, due = _lab(instructor, student_a, late_days=1)
    assert _submit(assignment, student_a, due + timedelta(days=2, hours=12)).late is True
    with pytest.raises(SubmissionClosed):
        _submit(assignment, student_a, due + timedelta(days=3, hours=1))


def test_a_student_without_an_extension_keeps_the_assignments_window(
    instructor, student_a, student_b
) -> None:
    assignment, due = _lab(instructor, student_a, late_days=None)
    with pytest.raises(SubmissionClosed):
        _submit(assignment, student_b, due + timedelta(days=1))


@pytest.mark.parametrize("url", ["/lab/problems/vector-add/", "/lab/"])
def test_the_pages_show_the_moved_late_window(
    client_a, client_b, instructor, student_a, url
) -> None:
    """What the student is told matches what the submit check allows: a window moved by two days."""
    assignment, due = _lab(instructor, student_a, late_days=1)
    moved, unmoved = due + timedelta(days=3), due + timedelta(days=1)
    page = client_a.get(url).content.decode()
    assert f"{timezone.localtime(moved):%Y-%m-%d %H:%M}" in page
    assert f"{timezone.localtime(unmoved):%Y-%m-%d %H:%M}" not in page
    other = client_b.get(url).content.decode()
    assert f"{timezone.localtime(unmoved):%Y-%m-%d %H:%M}" in other


def test_a_granted_date_the_assignment_moved_past_keeps_the_assignments_window(
    instructor, student_a
) -> None:
    """One rule (gradebook.models.Extension.effective_due): the lab's check and its pages read it."""
    due = timezone.now() - timedelta(days=10)
    assignment = make_assignment(due_at=due)
    item = assignment_grade_item(assignment)
    extension_grant(student=student_a, item=item, actor=instructor, due_at=due + timedelta(days=1))
    assignment.due_at = due + timedelta(days=3)
    assignment.save(update_fields=["due_at"])
    assignment_grade_item(assignment)  # as the admin's save does
    assert _submit(assignment, student_a, due + timedelta(days=2)).late is False
