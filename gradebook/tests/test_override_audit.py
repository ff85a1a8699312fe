"""Must hold 3 over HTTP: a TA's override survives an automatic regrade, clearing it restores the
automatic score, every step leaves an audit row, and the student sees the score and the reason."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.models import Grade, GradeEvent


def _override(client, student, item, points, reason):
    return client.post(
        f"/grades/staff/students/{student.pk}/override/",
        {"override-item": item.pk, "override-points": points, "override-reason": reason},
    )


@pytest.mark.django_db
def test_override_regrade_clear_cycle_is_audited(
    client_ta, client_a, student_a, ta, make_item, post
) -> None:
    item = make_item("lab:1", max_points=100, title="向量加法")
    post(student_a, item, 40)
    assert _override(client_ta, student_a, item, "90", "GPU 3 计时噪声").status_code == 302
    post(student_a, item, 45)  # the autograder runs again after a reference fix
    grade = Grade.objects.get(student=student_a, item=item)
    assert (grade.points, grade.auto_points) == (Decimal("90.00"), Decimal("45.00"))

    page = client_a.get("/grades/").content.decode()
    assert "GPU 3 计时噪声" in page and ">90</td>" in page

    clear = client_ta.post(
        f"/grades/staff/students/{student_a.pk}/override_clear/",
        {"override_clear-item": item.pk, "override_clear-reason": "重新测量"},
    )
    assert clear.status_code == 302
    assert Grade.objects.get(pk=grade.pk).points == Decimal("45.00")
    assert "GPU 3 计时噪声" not in client_a.get("/grades/").content.decode()

    rows = list(GradeEvent.objects.values_list("action", "old_points", "new_points", "actor"))
    assert rows == [
        ("record", None, Decimal("40.00"), None),
        ("override", Decimal("40.00"), Decimal("90.00"), ta.pk),
        ("record", Decimal("90.00"), Decimal("90.00"), None),
        ("clear_override", Decimal("90.00"), Decimal("45.00"), ta.pk),
    ]
    audit = client_ta.get(f"/grades/staff/students/{student_a.pk}/").content.decode()
    assert audit.count('data-action="override"') == 1
    assert audit.count('data-action="clear_override"') == 1 and "重新测量" in audit


@pytest.mark.django_db
def test_override_without_reason_or_out_of_range_changes_nothing(
    client_ta, student_a, make_item, post
) -> None:
    item = make_item("lab:1", max_points=100)
    post(student_a, item, 40)
    no_reason = _override(client_ta, student_a, item, "90", "")
    too_high = _override(client_ta, student_a, item, "101", "typo")
    assert (no_reason.status_code, too_high.status_code) == (400, 400)
    assert "超出 0…100.00" in too_high.content.decode()
    assert Grade.objects.get().points == Decimal("40.00")
    assert GradeEvent.objects.count() == 1


@pytest.mark.django_db
def test_clearing_an_absent_grade_is_a_clear_error(client_ta, student_a, make_item) -> None:
    item = make_item("lab:1")
    response = client_ta.post(
        f"/grades/staff/students/{student_a.pk}/override_clear/",
        {"override_clear-item": item.pk, "override_clear-reason": "r"},
    )
    assert response.status_code == 400 and "没有成绩" in response.content.decode()
