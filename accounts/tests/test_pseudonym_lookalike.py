"""A nickname that only looks like another account's username passed for that person too.

Profile.clean refuses another account's username (student IDs are usernames, and the leaderboard
shows nicknames), but compared the characters as typed: "student_a" with a zero-width space after
it, or in full-width letters ("ｓｔｕｄｅｎｔ＿ａ", one keystroke away in a Chinese input method),
was saved, and the leaderboard showed student_b's times as "student_a". Invisible format
characters (zero-width, bidirectional overrides) are refused like control characters, and a
nickname is compared, and kept unique, in its NFKC form, the one Django stores usernames in.
"""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError

from accounts.models import PSEUDONYM_BAD_CHARACTER, Profile

pytestmark = pytest.mark.django_db
PAGE = "/accounts/profile/pseudonym/"


@pytest.mark.parametrize(
    "lookalike",
    [
        "student_a\u200b",  # zero-width space
        "\u2060student_a",  # word joiner
        "student\u202e_a",  # right-to-left override
        "ｓｔｕｄｅｎｔ＿ａ",  # full-width letters
    ],
    ids=["zero-width", "word-joiner", "rtl-override", "full-width"],
)
def test_a_lookalike_of_another_username_is_refused(
    client_b, student_a, student_b, lookalike
) -> None:
    response = client_b.post(PAGE, {"pseudonym": lookalike})
    assert response.status_code == 400
    assert Profile.objects.get(user=student_b).pseudonym == ""


def test_a_full_width_copy_of_another_nickname_is_taken(client_a, client_b, student_b) -> None:
    assert client_a.post(PAGE, {"pseudonym": "Turbo"}).status_code == 302
    assert client_b.post(PAGE, {"pseudonym": "Ｔｕｒｂｏ"}).status_code == 400
    assert Profile.objects.get(user=student_b).pseudonym == ""


def test_chinese_and_full_width_nicknames_are_kept_in_their_nfkc_form(client_a, student_a) -> None:
    assert client_a.post(PAGE, {"pseudonym": "并行小王子 ２号"}).status_code == 302
    assert Profile.objects.get(user=student_a).pseudonym == "并行小王子 2号"


@pytest.mark.parametrize("name", ["student_a\u200b", "小王\u202e子", "a\x00b"])
def test_the_admin_refuses_the_same_characters(student_a, student_b, name) -> None:
    """Profile.clean, which the admin's form runs, holds the page's character rule too (before
    its query: a NUL would reach PostgreSQL)."""
    profile = Profile.objects.get(user=student_b)
    profile.pseudonym = name
    with pytest.raises(ValidationError) as refused:
        profile.clean()
    assert refused.value.message_dict == {"pseudonym": [str(PSEUDONYM_BAD_CHARACTER)]}
