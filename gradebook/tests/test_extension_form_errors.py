"""The extension form says one thing per mistake: -3 or 0 extra days were refused by the field
(1–365) and also read "请填写新截止时间或延长天数（二选一）" though the box was filled in."""

from __future__ import annotations

import pytest
from django.utils import timezone

from gradebook.forms import ExtensionForm
from gradebook.models import Extension

EITHER = "二选一"


@pytest.mark.django_db
@pytest.mark.parametrize("days", ["-3", "0", "366", "abc"])
def test_refused_extra_days_are_not_also_called_missing(
    client_ta, student_a, make_item, past_due, days
) -> None:
    item = make_item("lab:1", due_at=past_due)
    url = f"/grades/staff/students/{student_a.pk}/extension/"
    response = client_ta.post(url, {"extension-item": item.pk, "extension-extra_days": days})
    page = response.content.decode()
    assert response.status_code == 400
    assert EITHER not in page
    form = ExtensionForm({"item": item.pk, "extra_days": days})
    assert not form.is_valid() and list(form.errors) == ["extra_days"], form.errors
    assert Extension.objects.count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data",
    [
        {},
        {"extra_days": "  ", "due_at": ""},
        {"extra_days": "2", "due_at": "2026-12-01T10:00"},
        {"extra_days": "-3", "due_at": "2026-12-01T10:00"},
    ],
)
def test_neither_or_both_still_asks_for_one(make_item, past_due, data) -> None:
    item = make_item("lab:1", due_at=past_due)
    form = ExtensionForm({"item": item.pk, **data})
    assert not form.is_valid()
    assert any(EITHER in str(e) for e in form.non_field_errors()), form.errors


@pytest.mark.django_db
def test_one_of_them_is_enough(make_item, past_due) -> None:
    item = make_item("lab:1", due_at=past_due)
    assert ExtensionForm({"item": item.pk, "extra_days": "3"}).is_valid()
    due = timezone.localtime(past_due).strftime("%Y-%m-%dT%H:%M")
    assert ExtensionForm({"item": item.pk, "due_at": due}).is_valid()
