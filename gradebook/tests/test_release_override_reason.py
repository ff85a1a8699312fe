"""A staff override's reason on an unreleased item is nowhere for the student either, and the
rule it rests on, `Grade.objects.visible_to(student)` = "own grades of released items"
(gradebook.models.GradeQuerySet), holds by itself.

The reason says what the score is ("第 3 题与他人雷同，改为 45 分"), so it is released with the
score. 我的成绩 reads it from `visible_to`, and its template and CSV also show it only beside a
released result; with the released filter removed from the queryset no test failed (the pages'
second guard held), so the rule is now tested where it is written as well as on the pages.
"""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.models import Grade, GradeItem
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


@pytest.mark.django_db
def test_a_student_reads_only_released_grades(student_a, student_b, make_item, post) -> None:
    hidden = make_item("exam:final", max_points=100, released=False)
    shown = make_item("quiz:9", max_points=10)
    for student in (student_a, student_b):
        post(student, hidden, "50", source="import")
        post(student, shown, "5", source="quiz")
    mine = Grade.objects.visible_to(student_a)
    assert set(mine.values_list("student", "item")) == {(student_a.pk, shown.pk)}
