"""The home page's recent grades say what counts, as 我的成绩 does: after the late penalty and the
item's curve. They showed the Grade row's raw points (60 where the gradebook counts 65)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook import services

pytestmark = pytest.mark.django_db


def test_home_shows_the_counted_score_with_its_curve(client, student_a, instructor) -> None:
    due = timezone.now() - timedelta(days=3)
    late = {"late_policy": "penalty", "late_penalty_per_day": 10, "late_penalty_cap": 100}
    item = services.grade_item_ensure(
        key="quiz:901", title="曲线测验", kind="quiz", max_points=100, due_at=due, late=late
    )
    on_time = due - timedelta(hours=1)
    services.grade_record(
        student=student_a, item=item, points=60, source="quiz", submitted_at=on_time
    )
    late_item = services.grade_item_ensure(
        key="quiz:902", title="迟交测验", kind="quiz", max_points=100, due_at=due, late=late
    )
    two_days_late = due + timedelta(days=1, hours=1)
    services.grade_record(
        student=student_a, item=late_item, points=60, source="quiz", submitted_at=two_days_late
    )
    services.grade_item_curve_set(item=item, kind="add", value=5, actor=instructor, reason="偏难")
    client.force_login(student_a)
    page = client.get("/").content.decode()
    assert "曲线测验</span> <strong>65 / 100</strong>" in page and "曲线 +5" in page
    assert "迟交测验</span> <strong>48 / 100</strong>" in page  # 60 less 2 days x 10 %
