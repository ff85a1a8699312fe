"""An extension extends: a new due date on or before the item's own is refused, at the field."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone, translation

from gradebook.models import Extension, GradeEvent
from gradebook.services import GradeError, extension_grant

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("shift", [timedelta(days=-2000), timedelta(0)])
def test_service_refuses_a_due_date_not_after_the_items(
    student_a, ta, make_item, past_due, shift
) -> None:
    item = make_item("lab:1", due_at=past_due)
    with pytest.raises(GradeError, match="必须晚于") as caught:
        extension_grant(student=student_a, item=item, actor=ta, due_at=past_due + shift)
    assert caught.value.field == "due_at"
    assert not Extension.objects.exists()
    assert not GradeEvent.objects.filter(action=GradeEvent.Action.EXTENSION).exists()


def test_a_later_due_date_is_still_granted(student_a, ta, make_item, past_due) -> None:
    item = make_item("lab:1", due_at=past_due)
    ext = extension_grant(
        student=student_a, item=item, actor=ta, due_at=past_due + timedelta(minutes=1)
    )
    assert ext.effective_due() == past_due + timedelta(minutes=1)


@pytest.mark.parametrize(
    ("lang", "text"),
    [("zh-hans", "新截止时间必须晚于该项原截止时间"), ("en", "must be later than the item")],
)
def test_staff_form_shows_the_refusal_beside_the_due_date(
    client_instructor, student_a, make_item, past_due, lang, text
) -> None:
    item = make_item("lab:1", due_at=past_due)
    client_instructor.post("/i18n/setlang/", {"language": lang, "next": "/"})
    response = client_instructor.post(
        f"/grades/staff/students/{student_a.pk}/extension/",
        {"extension-item": item.pk, "extension-due_at": "2020-01-01T10:00"},
    )
    assert response.status_code == 400
    form = response.context["forms"]["extension"]
    local_due = f"{timezone.localtime(past_due):%Y-%m-%d %H:%M}"
    with translation.override(lang):
        assert text in str(form.errors["due_at"]) and local_due in str(form.errors["due_at"])
    assert text in response.content.decode()
    assert not Extension.objects.exists()
