"""The access helpers, tested hard: students vs staff, student_a vs student_b, anonymous users."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.access import can_release
from gradebook.models import Extension, Grade, GradeEvent, RegradeRequest
from gradebook.services import extension_grant, grade_override, regrade_request_create
from gradebook.tests.staff_actions import STUDENT_ACTIONS

STAFF_GET = [
    "/grades/staff/",
    "/grades/staff/export.csv",
    "/grades/staff/import/",
    "/grades/staff/regrades/",
    "/grades/staff/items/{item}/",
    "/grades/staff/items/{item}/export.csv",
    "/grades/staff/students/{student}/",
]


@pytest.fixture
def setup(student_a, student_b, ta, make_item, post, past_due):
    item = make_item("lab:1", max_points=100, due_at=past_due)
    post(student_a, item, 61)
    # B's scores have two decimals no id or date on A's pages can hold ("77" was an item's id).
    post(student_b, item, Decimal("72.25"))
    grade_override(
        student=student_b, item=item, points=Decimal("77.75"), actor=ta, reason="B 的私密原因"
    )
    extension_grant(student=student_b, item=item, actor=ta, extra_days=1)
    regrade_request_create(student=student_b, item=item, message="B 的复核说明", ref="testref:9")
    return {"item": item.pk, "student": student_b.pk}


@pytest.mark.django_db
def test_students_get_403_and_anonymous_go_to_login(client, client_a, setup) -> None:
    for path in STAFF_GET:
        url = path.format(**setup)
        assert client_a.get(url).status_code == 403, url
        anonymous = client.get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"], url


@pytest.mark.django_db
def test_tas_and_instructors_get_staff_pages(client_ta, client_instructor, setup) -> None:
    for path in STAFF_GET:
        url = path.format(**setup)
        assert client_ta.get(url).status_code == 200, url
        assert client_instructor.get(url).status_code == 200, url


@pytest.mark.django_db
def test_students_cannot_post_staff_actions(client, client_a, student_b, setup) -> None:
    before = (
        Grade.objects.get(student=student_b).points,
        GradeEvent.objects.count(),
        Extension.objects.get().extra_days,
    )
    for action, data in STUDENT_ACTIONS:
        url = f"/grades/staff/students/{student_b.pk}/{action}/"
        payload = {f"{action}-item": setup["item"], **data}
        assert client_a.post(url, payload).status_code == 403, action
        assert client.post(url, payload).status_code == 302, action  # to the login page
    after = (
        Grade.objects.get(student=student_b).points,
        GradeEvent.objects.count(),
        Extension.objects.get().extra_days,
    )
    assert after == before


@pytest.mark.django_db
def test_student_a_sees_nothing_of_student_b(client_a, setup) -> None:
    page = client_a.get("/grades/").content.decode()
    api = client_a.get("/grades/api/mine").content.decode()
    mine_csv = client_a.get("/grades/mine.csv").content.decode()
    regrades = client_a.get("/grades/regrades/").content.decode()
    for body in (page, api, mine_csv, regrades):
        assert "77.75" not in body and "72.25" not in body and "B 的" not in body
    assert "61" in page and "61" in api and "61" in mine_csv
    request = RegradeRequest.objects.get()
    assert client_a.get(f"/grades/regrades/{request.pk}/").status_code == 404


@pytest.mark.django_db
def test_querysets_filter_per_user(student_a, student_b, ta, setup) -> None:
    assert set(Grade.objects.visible_to(student_a).values_list("student", flat=True)) == {
        student_a.pk
    }
    assert RegradeRequest.objects.visible_to(student_a).count() == 0
    assert RegradeRequest.objects.visible_to(student_b).count() == 1
    assert RegradeRequest.objects.visible_to(ta).count() == 1
    assert GradeEvent.objects.visible_to(student_b).count() == 0
    assert GradeEvent.objects.visible_to(ta).count() == GradeEvent.objects.count() > 0
    assert Extension.objects.visible_to(student_a).filter(student=student_b).count() == 0


@pytest.mark.django_db
def test_only_instructors_may_release(student_a, ta, instructor) -> None:
    assert (can_release(student_a), can_release(ta), can_release(instructor)) == (
        False,
        False,
        True,
    )


@pytest.mark.django_db
def test_api_requires_login(client) -> None:
    assert client.get("/grades/api/mine").status_code == 403
    assert client.get("/grades/").status_code == 302


@pytest.mark.django_db
def test_unknown_targets_are_404(client_ta, setup) -> None:
    assert (
        client_ta.post(f"/grades/staff/students/{setup['student']}/delete_all/").status_code == 404
    )
    assert client_ta.get("/grades/staff/students/999999/").status_code == 404
    assert client_ta.get("/grades/staff/items/999999/").status_code == 404
    assert client_ta.get("/grades/regrades/999999/").status_code == 404
