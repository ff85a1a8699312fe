"""A leaderboard nickname names one student, whatever the letter case. The profile page checked
that, but nothing held it: two saves at once, or an admin edit (instructors may change profiles),
gave two students one name on the leaderboard. The database now refuses it."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import QuerySet

from accounts.models import Profile

pytestmark = pytest.mark.django_db
PAGE = "/accounts/profile/pseudonym/"


def admin_pseudonym_set(client, profile: Profile, pseudonym: str):
    """Post the admin's profile form with only the nickname changed."""
    return client.post(
        f"/admin/accounts/profile/{profile.pk}/change/",
        {
            "user": profile.user_id,
            "student_id": profile.student_id,
            "display_name": profile.display_name,
            "section": profile.section,
            "pseudonym": pseudonym,
        },
    )


def test_the_database_refuses_a_nickname_taken_in_another_case(student_a, student_b) -> None:
    Profile.objects.filter(user=student_a).update(pseudonym="WarpSpeed")
    with pytest.raises(IntegrityError), transaction.atomic():
        Profile.objects.filter(user=student_b).update(pseudonym="warpspeed")
    Profile.objects.filter(user=student_b).update(pseudonym="")  # many students have none
    assert Profile.objects.filter(pseudonym="").count() == 1


def test_two_students_saving_one_name_at_once(client_a, client_b, monkeypatch) -> None:
    assert client_a.post(PAGE, {"pseudonym": "warp-speed"}).status_code == 302
    # The second save's check ran before the first save landed: it saw the name free.
    monkeypatch.setattr(QuerySet, "exists", lambda self: False)
    client_b.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    second = client_b.post(PAGE, {"pseudonym": "Warp-Speed"})
    assert (
        second.status_code == 400 and "Someone else uses this nickname" in second.content.decode()
    )
    assert list(Profile.objects.exclude(pseudonym="").values_list("pseudonym", flat=True)) == [
        "warp-speed"
    ]


def test_an_admin_edit_to_a_taken_nickname_is_an_error_at_the_field(
    client_instructor, student_a, student_b
) -> None:
    Profile.objects.filter(user=student_a).update(pseudonym="warp-speed")
    profile = Profile.objects.get(user=student_b)
    response = admin_pseudonym_set(client_instructor, profile, "WARP-SPEED")
    assert response.status_code == 200
    assert "这个昵称已被别人使用" in str(response.context["adminform"].form.errors)
    profile.refresh_from_db()
    assert profile.pseudonym == ""
