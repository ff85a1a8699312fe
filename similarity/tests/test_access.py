"""Only course staff reach the similarity pages; students and anonymous users never see any
similarity data, on those pages or on their own."""

from __future__ import annotations

import pytest
from django.test import Client

from similarity.services import similarity_run_execute, similarity_run_request
from similarity.tests.corpus import INDEPENDENT, disguise
from similarity.tests.kit import softmax_assignment, students, submit

pytestmark = pytest.mark.django_db


@pytest.fixture
def pair_world():
    import random

    assignment = softmax_assignment()
    users = students(["orig", "copy"])
    a = submit(assignment, users["orig"], INDEPENDENT[8], minutes_ago=30)
    b = submit(assignment, users["copy"], disguise(INDEPENDENT[8], random.Random(3)))
    run = similarity_run_execute(
        run_id=similarity_run_request(assignment=assignment, actor=None).pk
    )
    pair = run.pairs.get()
    return assignment, users, a, b, pair


def _urls(assignment, pair) -> list[tuple[str, str]]:
    return [
        ("get", "/staff/similarity/"),
        ("get", f"/staff/similarity/assignments/{assignment.pk}/"),
        ("post", f"/staff/similarity/assignments/{assignment.pk}/run/"),
        ("get", f"/staff/similarity/pairs/{pair.pk}/"),
        ("post", f"/staff/similarity/pairs/{pair.pk}/"),
        ("post", "/staff/similarity/archive/import/"),
        ("post", "/staff/similarity/archive/export/"),
    ]


def test_students_get_403_and_anonymous_users_the_login_page(pair_world) -> None:
    assignment, users, _a, _b, pair = pair_world
    student = Client()
    student.force_login(users["copy"])
    anonymous = Client()
    for method, url in _urls(assignment, pair):
        assert getattr(student, method)(url).status_code == 403, url
        response = getattr(anonymous, method)(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    assert pair.decisions.count() == 0 and assignment.similarity_runs.count() == 1


def test_staff_reach_every_page(pair_world, client_ta) -> None:
    assignment, _users, _a, _b, pair = pair_world
    for url in ("/staff/similarity/", f"/staff/similarity/assignments/{assignment.pk}/",
                f"/staff/similarity/pairs/{pair.pk}/"):  # fmt: skip
        assert client_ta.get(url).status_code == 200, url
    assert client_ta.get("/staff/similarity/pairs/999999/").status_code == 404


def test_student_pages_show_no_similarity_data(pair_world) -> None:
    assignment, users, a, b, pair = pair_world
    student = Client()
    student.force_login(users["copy"])
    pages = [
        "/lab/",
        "/lab/problems/softmax/",
        f"/lab/submissions/{b.pk}/",
        "/grades/",
        "/staff/similarity/",  # 403 page
    ]
    for url in pages:
        # The address the student asked for comes back in the language switch's `next` field
        # (the 403 page has the site's layout): it is theirs, not similarity data.
        body = student.get(url).content.decode().replace(f'value="{url}"', "")
        for word in ("similarity", "相似", f"{pair.fraction:.2f}"):
            assert word not in body.lower(), (url, word)
