"""An item key that looks like a lab's or a quiz's but whose id is no id ("lab:²", typed into the
admin, which takes any key) follows no lab or quiz: an extension or a late-policy change on it
answered 500, since "²" passed str.isdigit() and then broke int()."""

from __future__ import annotations

import pytest

from gradebook.models import Extension

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("key", ["lab:²", "quiz:²", "lab:-1", "quiz:99999999999999999999"])
def test_an_extension_on_an_item_with_an_odd_key_is_granted(
    client_instructor, student_a, make_item, past_due, key
) -> None:
    item = make_item(key, due_at=past_due)
    response = client_instructor.post(
        f"/grades/staff/students/{student_a.pk}/extension/",
        {"extension-item": item.pk, "extension-extra_days": "2"},
    )
    assert response.status_code == 302
    assert Extension.objects.filter(student=student_a, item=item).exists()
