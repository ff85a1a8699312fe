"""A NUL character in a query string is a clear 400, not a server error.

PostgreSQL can neither store nor compare a string holding NUL; each of these pages filtered by a
query parameter as given and answered 500 (found by a junk-input probe on PostgreSQL).
pdcsite.security.QueryNulMiddleware refuses such a request before any view reads it.
"""

from __future__ import annotations

import pytest
from django.conf import settings

pytestmark = pytest.mark.django_db

SERVER_ERRORS_BEFORE = [
    "/lectures/search/?q=%00",
    "/quizzes/staff/bank/?quiz=%00",
    "/grades/staff/?section=%00",
    "/grades/staff/export.csv?section=a%00b",
    "/accounts/staff/roster/?section=%00",
    "/grades/regrades/new/?item=%00",
]


@pytest.mark.parametrize("url", SERVER_ERRORS_BEFORE)
@pytest.mark.parametrize(
    ("lang", "words"), [("zh-hans", "空字符（NUL）"), ("en", "contains a NUL character")]
)
def test_a_nul_in_the_query_is_refused_in_the_visitors_language(
    client_instructor, student_a, url: str, lang: str, words: str
) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client_instructor.get(url)
    assert response.status_code == 400
    assert words in response.content.decode()


def test_a_nul_in_a_parameter_name_and_on_the_api_is_refused_as_json(client_a) -> None:
    response = client_a.get("/api/v1/submissions/1?%00=1")
    assert response.status_code == 400
    assert "NUL" in response.json()["detail"]


def test_the_same_pages_answer_without_the_nul(client_instructor, student_a) -> None:
    for url in SERVER_ERRORS_BEFORE:
        response = client_instructor.get(url.replace("%00", ""))
        assert response.status_code == (404 if "item=" in url else 200), url  # no such item


@pytest.mark.parametrize("nickname", ["warp\x00speed", "warp\x07speed"])
def test_a_nickname_with_a_control_character_is_refused_with_a_clear_error(
    client_a, nickname: str
) -> None:
    response = client_a.post("/accounts/profile/pseudonym/", {"pseudonym": nickname})
    assert response.status_code == 400
    assert "昵称不能含控制字符或看不见的格式字符" in response.content.decode()
