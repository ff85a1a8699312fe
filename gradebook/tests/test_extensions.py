"""Must hold 2: extensions change what counts as late — also when granted after the submission."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook import selectors
from gradebook.models import Extension, GradeEvent
from gradebook.services import GradeError, extension_grant, extension_revoke

PENALTY = {"late_policy": "penalty", "late_penalty_per_day": Decimal(10)}


def _result(student, item):
    return selectors.student_view(student)["standing"].items[item.key]


@pytest.mark.django_db
def test_extension_granted_after_a_late_submission_removes_the_penalty(
    student_a, ta, make_item, post, past_due
) -> None:
    item = make_item("lab:1", max_points=100, due_at=past_due, **PENALTY)
    post(student_a, item, 80, submitted_at=past_due + timedelta(hours=30))  # 2 started days late
    before = _result(student_a, item)
    assert (before.days_late, before.penalty_percent, before.counted) == (
        2,
        Decimal(20),
        Decimal("64.00"),
    )

    extension_grant(student=student_a, item=item, actor=ta, extra_days=1, reason="ill")
    partly = _result(student_a, item)
    assert (partly.days_late, partly.counted, partly.extended) == (1, Decimal("72.00"), True)

    extension_grant(student=student_a, item=item, actor=ta, due_at=past_due + timedelta(days=2))
    assert _result(student_a, item).counted == Decimal("80.00")
    assert Extension.objects.count() == 1  # the second grant replaced the first

    extension_revoke(student=student_a, item=item, actor=ta, reason="mistake")
    assert _result(student_a, item).counted == Decimal("64.00")
    assert list(
        GradeEvent.objects.filter(action__in=["extension", "ext_revoke"]).values_list(
            "action", "actor__username"
        )
    ) == [("extension", "ta"), ("extension", "ta"), ("ext_revoke", "ta")]


@pytest.mark.django_db
def test_extension_is_per_student(student_a, student_b, ta, make_item, post, past_due) -> None:
    item = make_item("lab:1", max_points=100, due_at=past_due, **PENALTY)
    for student in (student_a, student_b):
        post(student, item, 50, submitted_at=past_due + timedelta(hours=1))
    extension_grant(student=student_a, item=item, actor=ta, extra_days=1)
    assert _result(student_a, item).counted == Decimal("50.00")
    assert _result(student_b, item).counted == Decimal("45.00")


@pytest.mark.django_db
def test_extra_days_follow_a_moved_deadline(student_a, ta, make_item, post, past_due) -> None:
    item = make_item("lab:1", max_points=100, due_at=past_due, **PENALTY)
    post(student_a, item, 50, submitted_at=past_due + timedelta(days=2, hours=1))
    extension_grant(student=student_a, item=item, actor=ta, extra_days=2)
    assert _result(student_a, item).days_late == 1
    item.due_at = past_due + timedelta(days=1)
    item.save(update_fields=["due_at"])
    assert _result(student_a, item).days_late == 0


@pytest.mark.django_db
def test_a_deadline_moved_past_a_granted_date_holds_for_that_student(
    student_a, student_b, ta, make_item, post, past_due
) -> None:
    """The student with an extension is never worse off than the class: staff moving the item's
    due date past the date they granted moves that student's date too."""
    item = make_item("lab:1", max_points=100, due_at=past_due, **PENALTY)
    extension_grant(student=student_a, item=item, actor=ta, due_at=past_due + timedelta(days=1))
    for student in (student_a, student_b):
        post(student, item, 50, submitted_at=past_due + timedelta(days=2, hours=1))
    item.due_at = past_due + timedelta(days=3)
    item.save(update_fields=["due_at"])
    assert [_result(s, item).days_late for s in (student_a, student_b)] == [0, 0]
    assert selectors.extended_dues(student_a, [item.key]) == {item.key: item.due_at}


@pytest.mark.django_db
def test_an_item_without_a_due_date_has_nothing_to_extend(
    client_ta, student_a, ta, make_item
) -> None:
    """A date of the student's own on an undated item could only make them late."""
    item = make_item("quiz:1")
    with pytest.raises(GradeError, match="没有截止时间") as caught:
        extension_grant(
            student=student_a, item=item, actor=ta, due_at=timezone.now() + timedelta(days=1)
        )
    assert caught.value.field == "item"
    response = client_ta.post(
        f"/grades/staff/students/{student_a.pk}/extension/",
        {"extension-item": item.pk, "extension-due_at": "2030-01-01T10:00"},
    )
    assert response.status_code == 400
    assert "没有截止时间" in str(response.context["forms"]["extension"].errors["item"])
    assert Extension.objects.count() == 0 and GradeEvent.objects.count() == 0


@pytest.mark.django_db
def test_extension_makes_a_missing_item_not_yet_due(student_a, ta, make_item, past_due) -> None:
    item = make_item("lab:1", due_at=past_due)
    assert _result(student_a, item).status == "missing"
    extension_grant(student=student_a, item=item, actor=ta, extra_days=7)
    assert _result(student_a, item).status == "not_started"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "kwargs,match",
    [({}, "二选一"), ({"extra_days": 0}, "1–365"), ({"extra_days": 2, "due_at": "x"}, "二选一")],
)
def test_bad_extensions_are_refused_and_write_nothing(
    student_a, ta, make_item, past_due, kwargs, match
) -> None:
    item = make_item("lab:1", due_at=past_due)
    with pytest.raises(GradeError, match=match):
        extension_grant(student=student_a, item=item, actor=ta, **kwargs)
    assert Extension.objects.count() == 0 and GradeEvent.objects.count() == 0


@pytest.mark.django_db
def test_extension_form_over_http(client_ta, student_a, make_item, post, past_due) -> None:
    item = make_item("lab:1", max_points=100, due_at=past_due, **PENALTY)
    post(student_a, item, 80, submitted_at=past_due + timedelta(hours=5))
    url = f"/grades/staff/students/{student_a.pk}/extension/"
    bad = client_ta.post(url, {"extension-item": item.pk, "extension-reason": "x"})
    assert bad.status_code == 400
    # Said once, above the form (the page once printed it twice: non_field_errors, then as_p).
    assert bad.content.decode().count("二选一") == 1
    assert Extension.objects.count() == 0
    new_due = timezone.localtime(past_due + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    ok = client_ta.post(url, {"extension-item": item.pk, "extension-due_at": new_due})
    assert ok.status_code == 302
    assert _result(student_a, item).counted == Decimal("80.00")
