"""Must hold 4: student A cannot see, diff or download student B's submission (404), via pages and
the API; staff can."""

from __future__ import annotations

import json

import pytest

from accounts.models import ApiToken
from gradinglab.tests.labkit import purge, submit_and_take

pytestmark = pytest.mark.django_db


PAGES = [
    "/lab/submissions/{b}/",
    "/lab/submissions/{b}/status/",
    "/lab/submissions/{b}/source/",
    "/lab/submissions/diff/?a={a}&b={b}",
    "/lab/submissions/diff/?a={b}&b={a}",
    "/api/v1/submissions/{b}",
    "/api/v1/submissions/{b}/source",
]


@pytest.mark.parametrize("url", PAGES)
def test_student_gets_404_for_anothers_submission(client_a, two_submissions, url) -> None:
    a, b = two_submissions
    response = client_a.get(url.format(a=a, b=b))
    assert response.status_code == 404
    assert "triton.jit" not in response.content.decode(errors="replace")


@pytest.mark.parametrize("url", PAGES)
def test_owner_and_ta_can_open_it(client_b, client_ta, two_submissions, url) -> None:
    a, b = two_submissions
    assert client_ta.get(url.format(a=a, b=b)).status_code == 200
    if "{a}" not in url:
        assert client_b.get(url.format(a=a, b=b)).status_code == 200


def test_api_token_of_a_cannot_read_bs_submission(client, student_a, two_submissions) -> None:
    a, b = two_submissions
    raw = ApiToken.new_raw()
    ApiToken.objects.create(user=student_a, key_hash=ApiToken.hash(raw))
    auth = {"HTTP_AUTHORIZATION": f"Token {raw}"}
    assert client.get(f"/api/v1/submissions/{a}", **auth).status_code == 200
    assert client.get(f"/api/v1/submissions/{b}", **auth).status_code == 404
    assert client.get(f"/api/v1/submissions/{b}/source", **auth).status_code == 404


def test_own_diff_shows_changes(client_a, assignment, django_capture_on_commit_callbacks) -> None:
    from gradinglab.tests.labkit import correct_source

    purge()
    first, _ = submit_and_take(client_a, django_capture_on_commit_callbacks)
    changed = correct_source().replace("BLOCK = 1024", "BLOCK = 256")
    second, _ = submit_and_take(client_a, django_capture_on_commit_callbacks, source=changed)
    page = client_a.get(f"/lab/submissions/diff/?a={first.json()['id']}&b={second.json()['id']}")
    assert page.status_code == 200
    text = page.content.decode()
    assert "BLOCK" in text and "256" in text and "1024" in text


def test_anonymous_is_sent_to_login_and_api_says_401_or_403(client, two_submissions) -> None:
    a, b = two_submissions
    assert client.get(f"/lab/submissions/{a}/").status_code == 302
    assert client.get(f"/api/v1/submissions/{a}").status_code in (401, 403)
    response = client.post(
        "/api/v1/submissions",
        data=json.dumps({"problem": "vector-add", "backend": "triton", "source": "x"}),
        content_type="application/json",
    )
    assert response.status_code in (401, 403)
