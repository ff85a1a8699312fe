"""A superuser keeps Django-admin access (is_staff) whatever course role the roster gives them.

An audit found that a roster listing the site's superuser as a student cleared their is_staff, so
they could no longer sign in to /admin/ to put it right."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from accounts.roles import role_of
from accounts.services import user_create_with_role

pytestmark = pytest.mark.django_db
User = get_user_model()


@pytest.fixture
def root(db):
    return User.objects.create_superuser("root", "root@example.edu", "pw-root-12345")


def _import(client, text: str) -> None:
    file = SimpleUploadedFile("list.csv", text.encode(), content_type="text/csv")
    preview = client.post("/accounts/staff/roster/upload/", {"file": file}).content.decode()
    payload = re.search(r'name="payload" value="([^"]+)"', preview)[1]
    assert client.post("/accounts/staff/roster/confirm/", {"payload": payload}).status_code == 302


def test_a_roster_listing_the_superuser_as_a_student_keeps_their_admin(
    client_instructor, root
) -> None:
    _import(client_instructor, "student_id,name,email,role\nroot,Root,root@example.edu,student\n")
    root.refresh_from_db()
    assert role_of(root) == "student" and root.is_staff and root.is_superuser
    client = Client()
    client.force_login(root)
    assert client.get("/admin/").status_code == 200


def test_a_role_change_keeps_a_superusers_staff_flag(root) -> None:
    user = user_create_with_role(username="root", password="pw-root-12345", role="student")
    assert user.is_staff
    plain = user_create_with_role(username="plain", password="pw-plain-12345", role="student")
    assert not plain.is_staff
