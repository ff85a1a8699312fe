"""Under a GRACE policy the lab's counting submission is chosen with the grace days left at the
assignment (the gradebook's earliest-deadline-first order), not before them: at 20 %/day with 2
grace days an on-time 80 and a 2-days-late 100 counted 80, though grace days cover the 100."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade, GradebookSettings, GradeItem
from gradebook.selectors import grid
from gradinglab.tests.labkit import make_assignment, scored_submission

pytestmark = pytest.mark.django_db

DUE = (timezone.now() - timedelta(days=30)).replace(microsecond=0)


def _row(page: str, key: str) -> str:
    return page.split(f'data-key="{key}"', 1)[1].split("</tr>", 1)[0]


def test_grace_days_make_the_late_100_count(
    student_a, client_a, client_instructor, client_ta, monkeypatch
) -> None:
    GradebookSettings.objects.update_or_create(pk=1, defaults={"grace_days": 2})
    assignment = make_assignment(
        points=Decimal("100"), due_at=DUE, late_policy="grace",
        late_penalty_per_day=Decimal("20"), late_penalty_cap=Decimal("100"),
    )  # fmt: skip
    on_time = scored_submission(assignment, student_a, "80", DUE - timedelta(hours=1))
    late = scored_submission(assignment, student_a, "100", DUE + timedelta(hours=36))  # 2 days
    key = assignment.grade_item_key
    mine = client_a.get("/grades/").content.decode()
    assert "迟 2 天，扣 0%（用宽限 2 天）" in _row(mine, key) and ">100<" in _row(mine, key)
    total = mine.split('id="course-total">', 1)[1].split("</strong>", 1)[0]
    (grid_row,) = grid()["rows"]
    assert total == f"{grid_row.total.normalize():f}%" == "100%"
    # Staff see the same: the submission that counts, its score and its grace days.
    item = GradeItem.objects.get(key=key)
    page = client_instructor.get(f"/grades/staff/students/{student_a.pk}/?item={item.pk}")
    staff = page.content.decode()
    assert f"#{late.pk}" in _row(staff, key) and ">100<" in _row(staff, key)
    assert "用宽限 2 天" in _row(staff, key)
    current = staff.split('id="override-current">', 1)[1].split("</p>", 1)[0]
    assert "<strong>100</strong>" in current and f"#{late.pk}" in current
    admin = client_ta.get(f"/admin/gradinglab/submission/{on_time.pk}/override/").content.decode()
    current = admin.split('id="current-grade">')[1].split("</td>")[0]
    counted = admin.split('id="counted-submission">')[1].split("</td>")[0]
    assert "100.00" in current and f"#{late.pk}" in counted
    # The Grade row keeps the posted work (the on-time 80); its admin page says what counts.
    grade = Grade.objects.get(item=item, student=student_a)
    admin = client_ta.get(f"/admin/gradebook/grade/{grade.pk}/change/").content.decode()
    counted = admin.split('id="counted-now">')[1].split("</span>")[0]
    assert "100 分" in counted and f"#{late.pk}" in counted, counted
