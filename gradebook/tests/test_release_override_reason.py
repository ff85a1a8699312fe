"""A staff override's reason on an unreleased item is nowhere for the student either.

The reason says what the score is ("第 3 题与他人雷同，改为 45 分"), so it is released with the
score. 我的成绩 reads it from `Grade.objects.visible_to(student)`, whose rule for a student is "own
grades of released items" (gradebook.models.GradeQuerySet): that filter alone keeps it off the
page, and test_release's hidden exam had no override, so nothing failed without it.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.models import GradeItem
from gradebook.services import grade_override

REASON = "第 3 题与他人雷同，改为 45 分"


@pytest.mark.django_db
def test_an_unreleased_override_reason_is_not_shown(
    client_a, student_a, instructor, make_item, post
) -> None:
    hidden = make_item("exam:mid", max_points=100, title="期中考试", released=False)
    post(student_a, hidden, "73.25", source="import")
    grade_override(
        student=student_a, item=hidden, points=Decimal(45), actor=instructor, reason=REASON
    )
    surfaces = {
        "page": client_a.get("/grades/").content.decode(),
        "api": client_a.get("/grades/api/mine").content.decode(),
        "csv": client_a.get("/grades/mine.csv").content.decode(),
    }
    for name, body in surfaces.items():
        assert "期中考试" in body, name  # the row is there, as a status
        assert "雷同" not in body and "45.00" not in body, name

    GradeItem.objects.filter(pk=hidden.pk).update(released=True)
    assert REASON in client_a.get("/grades/").content.decode()  # released: the reason comes along
