"""The lab's counting submission is the one worth most after the gradebook's late penalty, judged
by the gradebook's one lateness rule (gradebook.calc.LateRule), as a quiz's "best" attempt is.
Before, it was the best score before the penalty: 90 on time and 100 late at 50 % counted 50."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade, GradeItem
from gradebook.services import extension_grant, extension_revoke
from gradinglab.models import Submission
from gradinglab.services.results import assignment_grade_item
from gradinglab.tests.labkit import make_assignment, scored_submission

pytestmark = pytest.mark.django_db

DUE = (timezone.now() - timedelta(days=30)).replace(microsecond=0)


@pytest.fixture
def assignment(db):
    made = make_assignment(
        points=Decimal("100"), due_at=DUE, late_penalty_per_day=Decimal("50"),
        late_penalty_cap=Decimal("100"),
    )  # fmt: skip
    assignment_grade_item(made)
    return made


@pytest.fixture
def two(assignment, student_a) -> tuple[Submission, Submission]:
    """90 an hour before the due date, then 100 an hour after it (a day late: counts 50)."""
    on_time = scored_submission(assignment, student_a, "90", DUE - timedelta(hours=1))
    return on_time, scored_submission(assignment, student_a, "100", DUE + timedelta(hours=1))


def test_an_on_time_submission_beats_a_better_late_one_after_its_penalty(two, student_a) -> None:
    on_time, _late = two
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("90.00"), f"submission:{on_time.pk}")


def test_an_extension_granted_later_picks_the_submission_again(
    assignment, two, student_a, instructor
) -> None:
    _on_time, late = two
    item = GradeItem.objects.get(key=assignment.grade_item_key)
    extension_grant(student=student_a, item=item, actor=instructor, extra_days=2)
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("100.00"), f"submission:{late.pk}")
    extension_revoke(student=student_a, item=item, actor=instructor)
    assert Grade.objects.get(student=student_a).auto_points == Decimal("90.00")


def test_a_late_policy_changed_in_the_gradebook_admin_picks_the_submission_again(
    assignment, two, student_a, client_instructor
) -> None:
    """The audit's case: 30 %/day in the admin left submission #2 counting 4 instead of #1's 6."""
    _on_time, late = two
    item = GradeItem.objects.get(key=assignment.grade_item_key)
    url = f"/admin/gradebook/gradeitem/{item.pk}/change/"
    page = client_instructor.get(url)
    form = page.context["adminform"].form
    data = {name: form[name].value() for name in form.fields if form[name].value() is not None}
    data.update(late_penalty_per_day="5", due_at_0=str(DUE.date()), due_at_1=DUE.strftime("%H:%M"))
    data = {k: v for k, v in data.items() if k != "due_at"}
    response = client_instructor.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("100.00"), f"submission:{late.pk}")
