"""An item's curve through its services: each set, change and removal writes one audit row (who,
when, the curve, the reason), the same curve again writes none, removing it restores the uncurved
score (nothing stored was curved), and a bad curve or a missing reason is refused at its field."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from gradebook import selectors
from gradebook.models import GradeEvent
from gradebook.services import (
    GradeError,
    grade_item_curve_remove,
    grade_item_curve_set,
)


@pytest.fixture
def quiz(make_item, post, student_a, past_due):
    item = make_item("quiz:mid", max_points=100, due_at=past_due)
    post(student_a, item, 60, submitted_at=past_due)
    return item


def _counted(student, item) -> Decimal:
    return selectors.item_result(student, item).counted


@pytest.mark.django_db
def test_each_change_is_audited_and_removal_restores(ta, student_a, quiz) -> None:
    item = grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="期中太难")
    assert _counted(student_a, item) == Decimal("65.00")
    item = grade_item_curve_set(item=item, kind="add", value="5", actor=ta, reason="期中太难")
    item = grade_item_curve_set(item=item, kind="scale", value="1.1", actor=ta, reason="改为系数")
    assert _counted(student_a, item) == Decimal("66.00")
    assert grade_item_curve_remove(item=item, actor=ta, reason="已补考") is True
    assert grade_item_curve_remove(item=item, actor=ta, reason="again: nothing to remove") is False
    item.refresh_from_db()
    assert _counted(student_a, item) == Decimal("60.00")
    assert item.curve is None and item.curve_reason == ""
    events = list(GradeEvent.objects.filter(item=quiz).exclude(action="record"))
    assert [e.action for e in events] == ["curve_set", "curve_change", "curve_remove"]
    assert all(e.actor == ta and e.student is None and e.at for e in events)
    assert [e.shown_reason for e in events] == [
        "曲线设为 +5；期中太难",
        "曲线由 +5 改为 ×1.1；改为系数",
        "撤销曲线 ×1.1；已补考",
    ]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "value", "reason", "field"),
    [
        ("scale", "-1.1", "x", "value"),  # a negative factor
        ("scale", "0", "x", "value"),
        ("scale", "11", "x", "value"),  # above CURVE_MAX_FACTOR: a typo for 1.1
        ("add", "abc", "x", "value"),
        ("add", "NaN", "x", "value"),
        ("add", "101", "x", "value"),  # more than the item's 100 points
        ("add", "1.234", "x", "value"),
        ("bonus", "5", "x", "kind"),
        ("add", "5", " ", "reason"),
    ],
)
def test_a_bad_curve_is_refused_at_its_field(ta, quiz, kind, value, reason, field) -> None:
    with pytest.raises(GradeError) as refused:
        grade_item_curve_set(item=quiz, kind=kind, value=value, actor=ta, reason=reason)
    assert refused.value.field == field
    quiz.refresh_from_db()
    assert quiz.curve is None and not GradeEvent.objects.filter(action="curve_set").exists()


@pytest.mark.django_db
def test_removing_needs_a_reason(ta, quiz) -> None:
    grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="x")
    with pytest.raises(GradeError):
        grade_item_curve_remove(item=quiz, actor=ta, reason="")
    quiz.refresh_from_db()
    assert str(quiz.curve) == "+5"


@pytest.mark.django_db
def test_the_admin_shows_the_curve_read_only(client_instructor, instructor, quiz) -> None:
    """As release: the admin shows the curve, and changes it only through the audited service (the
    item's staff page), so its change form has no curve fields to post."""
    grade_item_curve_set(item=quiz, kind="scale", value="1.1", actor=instructor, reason="难")
    listing = client_instructor.get("/admin/gradebook/gradeitem/").content.decode()
    assert "×1.1" in listing
    form = client_instructor.get(f"/admin/gradebook/gradeitem/{quiz.pk}/change/").content.decode()
    assert 'name="late_policy"' in form and "1.100" in form
    assert not any(f'name="curve_{name}"' in form for name in ("kind", "value", "reason"))


@pytest.mark.django_db
def test_the_same_curve_with_a_new_reason_is_audited_as_a_reason_change(ta, quiz) -> None:
    """It said "曲线由 +5 改为 +5": the curve did not change, its reason did."""
    grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="期中太难")
    item = grade_item_curve_set(item=quiz, kind="add", value="5.00", actor=ta, reason="补充说明")
    assert item.curve_reason == "补充说明"
    event = GradeEvent.objects.filter(item=quiz).exclude(action="record").last()
    assert event.action == "curve_change"
    assert event.shown_reason == "曲线 +5 不变，更新原因；补充说明"
    with translation.override("en"):
        assert event.shown_reason.startswith("Curve +5 unchanged, reason updated")
