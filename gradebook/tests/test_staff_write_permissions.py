"""Every staff write checks its own permission (issue 13): a TA cannot create a grade item through the
CSV import, and a staff member whose group lost a permission cannot do that write. Nothing written."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.files.uploadedfile import SimpleUploadedFile

from gradebook.access import STAFF_WRITE_PERMISSIONS
from gradebook.models import Excusal, Extension, Grade, GradeEvent, GradeItem, RegradeRequest
from gradebook.services import regrade_request_create
from gradebook.tests.staff_actions import STUDENT_ACTIONS

IMPORT = "/grades/staff/import/"
CSV = "student_id,points\nstudent_a,88\n"


def _upload(client, csv_text: str = CSV, **fields):
    file = SimpleUploadedFile("scores.csv", csv_text.encode(), content_type="text/csv")
    return client.post(IMPORT, {"file": file, **fields})


def _revoke(role: str, label: str) -> None:
    app_label, codename = label.split(".")
    perm = Permission.objects.get(content_type__app_label=app_label, codename=codename)
    Group.objects.get(name=role).permissions.remove(perm)


NEW_ITEM = {"new_key": "exam:final", "new_title": "期末", "new_max_points": "100"}


@pytest.mark.django_db
def test_ta_cannot_create_an_item_through_the_import(client_ta, student_a) -> None:
    """A TA's form has no new-item fields (they led to a bare 403 page that lost what was
    typed): it asks for an existing item, and a forged post of the fields creates nothing."""
    page = client_ta.get(IMPORT).content.decode()
    assert 'name="new_key"' not in page and 'id="items-by-instructors"' in page
    response = _upload(client_ta, **NEW_ITEM)
    assert response.status_code == 400 and 'name="item"' in response.content.decode()
    assert not GradeItem.objects.filter(key="exam:final").exists() and not Grade.objects.exists()


@pytest.mark.django_db
def test_an_imported_new_item_starts_hidden_from_students(client_instructor, student_a) -> None:
    """Scores typed elsewhere reach students when an instructor releases them, and the
    import says which it is."""
    assert 'name="new_key"' in client_instructor.get(IMPORT).content.decode()
    response = _upload(client_instructor, **NEW_ITEM)
    assert response.status_code == 302
    assert GradeItem.objects.get(key="exam:final").released is False
    page = client_instructor.get(response["Location"]).content.decode()
    assert "这一项尚未发布，学生还看不到" in page


@pytest.mark.django_db
def test_instructor_creates_one_and_a_ta_imports_into_it(
    client_instructor, client_ta, student_a
) -> None:
    assert _upload(client_instructor, **NEW_ITEM).status_code == 302
    item = GradeItem.objects.get(key="exam:final")
    assert _upload(client_ta, CSV.replace("88", "77"), item=item.pk).status_code == 302
    assert Grade.objects.get(item=item).points == 77


@pytest.mark.django_db
def test_import_needs_change_grade(client_ta, student_a, make_item) -> None:
    item = make_item("exam:mid", max_points=100)
    _revoke("ta", "gradebook.change_grade")
    assert _upload(client_ta, item=item.pk).status_code == 403
    assert not Grade.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(("action", "fields"), STUDENT_ACTIONS, ids=[a for a, _ in STUDENT_ACTIONS])
def test_each_student_action_needs_its_permission(
    client_ta, student_a, make_item, action, fields
) -> None:
    item = make_item("exam:x", max_points=10)
    _revoke("ta", STAFF_WRITE_PERMISSIONS[action])
    before = GradeEvent.objects.count()
    url = f"/grades/staff/students/{student_a.pk}/{action}/"
    prefix = action
    response = client_ta.post(url, {f"{prefix}-item": item.pk, **fields})
    assert response.status_code == 403
    assert GradeEvent.objects.count() == before
    assert not Extension.objects.exists() and not Excusal.objects.exists()


@pytest.mark.django_db
def test_each_student_action_is_written_with_its_permission(
    client_ta, student_a, make_item, post, past_due
) -> None:
    """The counterpart of the test above (and of test_access's): the same posts by a TA who has
    the permissions are accepted, so a 403 there is the permission, never the form data."""
    item = make_item("exam:x", max_points=10, due_at=past_due)
    post(student_a, item, 6)
    for action, fields in STUDENT_ACTIONS:
        before = GradeEvent.objects.count()
        url = f"/grades/staff/students/{student_a.pk}/{action}/"
        response = client_ta.post(url, {f"{action}-item": item.pk, **fields})
        assert response.status_code == 302, action
        assert GradeEvent.objects.count() == before + 1, action


@pytest.mark.django_db
def test_answering_a_regrade_request_needs_its_permission(client_ta, student_a, make_item) -> None:
    item = make_item("exam:y", max_points=10)
    request = regrade_request_create(student=student_a, item=item, message="请复核第二题")
    _revoke("ta", "gradebook.resolve_regraderequest")
    response = client_ta.post(
        f"/grades/regrades/{request.pk}/", {"decision": "decline", "response": "不改"}
    )
    assert response.status_code == 403
    request.refresh_from_db()
    assert request.status == RegradeRequest.Status.OPEN
