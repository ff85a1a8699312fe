"""A leaderboard nickname that is another account's username passed for that person on the
leaderboard: student_b could save "student_a". It is refused, whatever the letter case and spaces
around it, on the profile page and in the admin (one rule: Profile.clean). Saving only spaces
clears the nickname, and the page now says so instead of "saved".

The refusal said "这个昵称是别人的用户名" while a free name was accepted, so the form told anyone which
usernames (student IDs) exist. It now gives the answer a name held by another nickname gets, and a
student has PDC_PSEUDONYM_ATTEMPTS_PER_HOUR tries an hour."""

from __future__ import annotations

import html

import pytest
from django.conf import settings
from django.test import override_settings

from accounts.models import Profile
from accounts.tests.test_pseudonym_unique import admin_pseudonym_set
from pdcsite.throttle import throttle_reset

pytestmark = pytest.mark.django_db
PAGE = "/accounts/profile/pseudonym/"
REFUSED = "这个昵称已被别人使用，请换一个。"  # the same answer as for another student's nickname


def test_another_users_username_is_refused(client_b, student_a, student_b) -> None:
    response = client_b.post(PAGE, {"pseudonym": "  Student_A "})
    page = response.content.decode()
    assert response.status_code == 400 and REFUSED in page
    assert 'value="  Student_A "' in page  # what was typed stays in the field
    assert Profile.objects.get(user=student_b).pseudonym == ""


def test_a_staff_username_is_refused_in_english_too(client_b, ta, student_b) -> None:
    client_b.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    response = client_b.post(PAGE, {"pseudonym": "TA"})
    assert response.status_code == 400
    page = html.unescape(response.content.decode())
    assert "Someone else uses this nickname; please choose another." in page
    assert Profile.objects.get(user=student_b).pseudonym == ""


def test_ones_own_username_is_allowed(client_a, student_a) -> None:
    assert client_a.post(PAGE, {"pseudonym": "STUDENT_A"}).status_code == 302
    assert Profile.objects.get(user=student_a).pseudonym == "STUDENT_A"


def test_the_admin_refuses_another_users_username_at_the_field(
    client_instructor, student_a, student_b
) -> None:
    profile = Profile.objects.get(user=student_b)
    response = admin_pseudonym_set(client_instructor, profile, "student_a")
    assert response.status_code == 200
    assert REFUSED in str(response.context["adminform"].form.errors["pseudonym"])
    profile.refresh_from_db()
    assert profile.pseudonym == ""


def test_saving_only_spaces_says_the_nickname_was_cleared(client_a, student_a) -> None:
    saved = client_a.post(PAGE, {"pseudonym": "warp-speed"}, follow=True).content.decode()
    assert "排行榜昵称已保存。" in saved
    cleared = client_a.post(PAGE, {"pseudonym": "   "}, follow=True).content.decode()
    assert "排行榜昵称已清除，你不会出现在排行榜上。" in cleared
    assert "排行榜昵称已保存。" not in cleared
    assert Profile.objects.get(user=student_a).pseudonym == ""
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = client_a.post(PAGE, {"pseudonym": ""}, follow=True).content.decode()
    assert "Leaderboard nickname cleared: you do not appear on the leaderboard." in english


def test_a_username_and_a_nickname_get_the_same_answer(client_b, student_a, student_b) -> None:
    Profile.objects.filter(user=student_a).update(pseudonym="warp-speed")

    def refusal(name: str) -> str:
        response = client_b.post(PAGE, {"pseudonym": name})
        assert response.status_code == 400
        return response.context["pseudonym_error"]

    assert refusal("student_a") == refusal("WARP-SPEED") == REFUSED


@override_settings(PDC_PSEUDONYM_ATTEMPTS_PER_HOUR=3)
def test_nickname_attempts_are_limited_per_student(
    client_a, client_b, student_a, student_b
) -> None:
    for student in (student_a, student_b):  # earlier tests' posts stay in the cache
        throttle_reset(f"pseudonym:{student.pk}")
    codes = [client_b.post(PAGE, {"pseudonym": f"s{n}"}).status_code for n in range(3)]
    assert codes == [302, 302, 302]
    refused = client_b.post(PAGE, {"pseudonym": "student_a"})
    assert refused.status_code == 429 and REFUSED not in refused.content.decode()
    assert "修改昵称的次数过多，请一小时后再试。" in refused.content.decode()
    assert Profile.objects.get(user=student_b).pseudonym == "s2"
    assert client_a.post(PAGE, {"pseudonym": "mine"}).status_code == 302  # another student's own
    # Leaving the leaderboard always works, throttled or not (an audit was kept on it).
    assert client_b.post(PAGE, {"pseudonym": ""}).status_code == 302
    assert Profile.objects.get(user=student_b).pseudonym == ""
