"""A read-only user field in the admin (a submission's student) links to the user's admin page
whatever the viewer may open. TAs and instructors may not view users in the admin, so that link
was a 403; it now takes them to the person's staff page. Whoever may view users still gets the
admin's user page."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.utils import timezone

from gradinglab.tests.labkit import make_assignment, scored_submission

pytestmark = pytest.mark.django_db


def _student_link(client, student_a) -> str:
    sub = scored_submission(make_assignment(), student_a, "10", timezone.now())
    page = client.get(f"/admin/gradinglab/submission/{sub.pk}/change/").content.decode()
    links = re.findall(r'href="(/admin/auth/user/\d+/change/)"', page)
    assert links == [f"/admin/auth/user/{student_a.pk}/change/"], links
    return links[0]


@pytest.mark.parametrize("viewer", ["client_ta", "client_instructor"])
def test_the_student_link_on_a_submission_reaches_the_staff_page(
    request, student_a, viewer: str
) -> None:
    client = request.getfixturevalue(viewer)
    response = client.get(_student_link(client, student_a), follow=True)
    assert response.status_code == 200
    assert response.redirect_chain == [(f"/staff/people/{student_a.pk}/", 302)]
    assert student_a.username in response.content.decode()


def test_who_may_view_users_still_gets_the_admin_page(
    instructor, client_instructor, student_a
) -> None:
    instructor.user_permissions.add(
        Permission.objects.get(content_type__app_label="auth", codename="view_user")
    )
    response = client_instructor.get(f"/admin/auth/user/{student_a.pk}/change/")
    assert response.status_code == 200


def test_a_student_gets_no_staff_page(client_a, student_b) -> None:
    response = client_a.get(f"/admin/auth/user/{student_b.pk}/change/")
    assert response.status_code in (302, 403)
    assert "/staff/people/" not in response.get("Location", "")


@pytest.mark.parametrize("odd", ["²", "١", "0", "99999999999999999999"])
def test_an_id_that_is_no_id_is_not_redirected(client_ta, odd: str) -> None:
    """str.isdigit() took "²" (then int() raised: a 500) and the Arabic-Indic "١" (a redirect to
    person 1); a review. Such an id is the admin's own answer for a user it cannot show."""
    response = client_ta.get(f"/admin/auth/user/{odd}/change/")
    assert response.status_code in (302, 403, 404) and "/staff/people/" not in response.get(
        "Location", ""
    )
