"""The admin cannot bypass the audit: release goes through the audited service, and the audit-bearing
models (events, extensions, excusals, regrade requests) are read-only there."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from conftest import admin_action
from gradebook.models import GradeEvent, GradeItem
from gradebook.services import grade_record


@pytest.mark.django_db
def test_admin_release_action_is_audited(client_instructor, instructor, make_item) -> None:
    item = make_item("exam:mid", kind="exam", released=False)
    response = admin_action(client_instructor, "/admin/gradebook/gradeitem/", "release_items", item)
    assert response.status_code == 302
    item.refresh_from_db()
    assert item.released
    assert list(GradeEvent.objects.values_list("action", "actor")) == [("release", instructor.pk)]
    form = client_instructor.get(f"/admin/gradebook/gradeitem/{item.pk}/change/").content.decode()
    assert 'name="late_policy"' in form and 'name="released"' not in form


@pytest.mark.django_db
def test_admin_release_action_needs_the_release_permission(client_ta, make_item) -> None:
    item = make_item("exam:mid", kind="exam", released=False)
    client_ta.post(
        "/admin/gradebook/gradeitem/", {"action": "release_items", "_selected_action": [item.pk]}
    )
    assert not GradeItem.objects.get(pk=item.pk).released
    assert not GradeEvent.objects.exists()


@pytest.mark.django_db
def test_audit_bearing_models_are_read_only_in_admin(client) -> None:
    admin = get_user_model().objects.create_superuser("root", "root@example.edu", "pw-root-12345")
    client.force_login(admin)
    for model in ("gradeevent", "extension", "excusal", "regraderequest", "grade"):
        assert client.get(f"/admin/gradebook/{model}/").status_code == 200, model
        assert client.get(f"/admin/gradebook/{model}/add/").status_code == 403, model
    assert client.get("/admin/gradebook/category/").status_code == 200
    assert client.get("/admin/gradebook/gradebooksettings/").status_code == 200


@pytest.mark.django_db
def test_admin_item_category_is_one_of_the_courses(client_instructor, make_item) -> None:
    """Free text let a typo file an item under a category that weighs nothing."""
    from gradebook.forms import GradeItemAdminForm

    item = make_item("exam:mid", kind="exam")
    page = client_instructor.get(f"/admin/gradebook/gradeitem/{item.pk}/change/").content.decode()
    assert '<select name="category"' in page and ">考试</option>" in page
    assert client_instructor.get("/admin/gradebook/gradeitem/add/").status_code == 200
    field = GradeItemAdminForm(instance=item).fields["category"]
    assert field.clean("quiz") == "quiz"
    with pytest.raises(ValidationError):
        field.clean("Exam")
    item.category = "legacy"  # a category whose row was deleted: the item can still be saved
    assert GradeItemAdminForm(instance=item).fields["category"].clean("legacy") == "legacy"


@pytest.mark.django_db
def test_admin_regrade_requests_name_the_work_not_its_key(
    client_instructor, student_a, make_item, stored_regrade
) -> None:
    """The list and the page said "submission:1", the stored key; the staff pages say 提交 #1."""
    regrade = stored_regrade(student_a, make_item("exam:mid", kind="exam"), "submission:1")
    listing = client_instructor.get("/admin/gradebook/regraderequest/").content.decode()
    page = client_instructor.get(
        f"/admin/gradebook/regraderequest/{regrade.pk}/change/"
    ).content.decode()
    for html in (listing, page):
        assert "提交 #1" in html and "submission:1" not in html


@pytest.mark.django_db
def test_a_grade_is_only_viewed_in_admin_even_by_a_ta_who_may_import(
    client_ta, student_a, make_item
) -> None:
    """The TA role has change_grade (the CSV import). The Grade change form let them type over the
    counted work (counted_ref) and save it, unaudited; the page now shows it as a link only."""
    item = make_item("exam:mid", kind="exam")
    grade = grade_record(student=student_a, item=item, points=7, source="import",
                         ref="submission:1")  # fmt: skip
    url = f"/admin/gradebook/grade/{grade.pk}/change/"
    page = client_ta.get(url).content.decode()
    assert 'name="counted_ref"' not in page and "提交 #1" in page
    response = client_ta.post(url, {"counted_ref": "submission:2", "_save": "1"})
    assert response.status_code == 403
    grade.refresh_from_db()
    assert grade.counted_ref == "submission:1"
