"""Comparing needs two different submissions: a missing or repeated pick sends the student back to
the problem page with a message in their language, never a 404; another student's id still is."""

from __future__ import annotations

import pytest
from django.conf import settings

from gradinglab.tests.labkit import submit_and_take

pytestmark = pytest.mark.django_db

DIFF = "/lab/submissions/diff/"
PROBLEM = "/lab/problems/vector-add/"
PICK_TWO = {
    "zh-hans": "请在 A 列和 B 列各选一次提交，再比较。",
    "en": "Pick one submission in column A and one in column B, then compare.",
}
NOT_SAME = {
    "zh-hans": "A 和 B 选的是同一次提交，请选两次不同的提交。",
    "en": "A and B are the same submission: pick two different submissions.",
}


def _query(kind: str, mine: int) -> dict[str, str]:
    return {
        "missing a": {"b": str(mine)},
        "missing b": {"a": str(mine)},
        "missing both": {},
        "empty a": {"a": "", "b": str(mine)},
        "same": {"a": str(mine), "b": str(mine)},
    }[kind]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("kind", ["missing a", "missing b", "missing both", "empty a", "same"])
def test_a_bad_pick_returns_to_the_problem_page_with_a_message(
    client_a, two_submissions, assignment, kind, lang
) -> None:
    mine, _ = two_submissions
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    query = {"problem": "vector-add", "assignment": str(assignment.pk), **_query(kind, mine)}
    response = client_a.get(DIFF, query, follow=True)
    assert response.status_code == 200
    assert response.redirect_chain[0][0] == f"{PROBLEM}?assignment={assignment.pk}"
    expected = (NOT_SAME if kind == "same" else PICK_TWO)[lang]
    assert expected in response.content.decode()


def test_without_the_forms_fields_a_pick_still_finds_its_problem(client_a, two_submissions) -> None:
    mine, _ = two_submissions
    response = client_a.get(DIFF, {"a": str(mine)})
    assert response.status_code == 302 and response["Location"].startswith(PROBLEM)


def test_the_problem_pages_form_carries_its_problem_and_requires_both_picks(
    client_a, two_submissions
) -> None:
    page = client_a.get(PROBLEM).content.decode()
    assert '<input type="hidden" name="problem" value="vector-add">' in page
    assert 'name="a" value="' in page and 'name="b" value="' in page
    assert page.count(" required>") >= 2


@pytest.mark.parametrize(
    "query",
    [
        lambda mine, theirs: {"a": theirs},
        lambda mine, theirs: {"b": theirs, "problem": "vector-add"},
        lambda mine, theirs: {"a": theirs, "b": theirs},
        lambda mine, theirs: {"a": mine, "b": theirs},
    ],
)
def test_another_students_submission_is_still_404(client_a, two_submissions, query) -> None:
    mine, theirs = two_submissions
    assert client_a.get(DIFF, query(mine, theirs)).status_code == 404


def test_two_own_submissions_still_compare(
    client_a, two_submissions, django_capture_on_commit_callbacks
):
    mine, _ = two_submissions
    second, _ = submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert client_a.get(DIFF, {"a": mine, "b": second.json()["id"]}).status_code == 200
