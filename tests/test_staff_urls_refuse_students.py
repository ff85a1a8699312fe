"""Every staff page refuses a signed-in student with 403, GET and POST alike, found from the URLconf
(a route with a "staff/" segment, and the staff pages that have none) rather than listed, so a
staff page added later is checked from the start. And no staff page takes a POST without the
CSRF token, an instructor's included: a page elsewhere cannot post a staff action through a
staff member's browser (a csrf_exempt on one view would let it).

Each app tests some of its own staff pages against students; the ones nobody asked were these:
the question bank, its YAML export (every right answer and explanation of a lecture's questions),
a quiz's staff preview (the answers of a draw), the new-question form and the staff quiz list had
only their decorator between a student and the answers of a quiz not yet taken.

The URL arguments name rows that exist (a quiz, its rule, a grade item, a student, a similarity
pair), and an instructor gets each GET page: a student's 403 comes from the access check, not
from a missing row (which would be a 404 with or without the check).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

# Staff pages whose route has no "staff/" segment.
STAFF_ROUTES_ELSEWHERE = {
    "status/",
    "quizzes/<slug:slug>/analysis/",
    "quizzes/<slug:slug>/attempts.csv",
    "flags/",
}


def _routes(patterns, prefix: str = "") -> Iterator[str]:
    for p in patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            if not route.startswith("admin/"):  # the admin has its own login and tests
                yield from _routes(p.url_patterns, route)
        elif isinstance(p, URLPattern):
            yield route


def staff_routes() -> list[str]:
    return sorted(
        r for r in _routes(get_resolver().url_patterns)
        if "staff/" in r.split("<")[0] or r in STAFF_ROUTES_ELSEWHERE
    )  # fmt: skip


@pytest.fixture
def world(student_b) -> dict[str, object]:
    from gradebook.services import grade_item_ensure
    from quizzes.models import Question, QuizRule
    from quizzes.tests.factories import question_single, quiz_with
    from similarity.services import similarity_run_execute, similarity_run_request
    from similarity.tests.corpus import INDEPENDENT, disguise
    from similarity.tests.kit import softmax_assignment, students, submit

    question = question_single("staff-url-1")
    Question.objects.filter(pk=question.pk).update(origin="staff")  # the YAML export holds it
    quiz = quiz_with([question], slug="staff-url-quiz")
    rule = QuizRule.objects.create(quiz=quiz, count=1, points=1, lecture=1)
    item = grade_item_ensure(key="exam:staff-url", title="期中", kind="exam", max_points=100)
    assignment = softmax_assignment()
    pair_of = students(["orig", "copy"])
    submit(assignment, pair_of["orig"], INDEPENDENT[8], minutes_ago=30)
    submit(assignment, pair_of["copy"], disguise(INDEPENDENT[8], random.Random(3)))
    run = similarity_run_execute(
        run_id=similarity_run_request(assignment=assignment, actor=None).pk
    )
    return {
        "<slug:slug>": quiz.slug,
        "<int:lecture>": 1,
        "<int:rule_id>": rule.pk,
        "<int:item_id>": item.pk,
        "<int:user_id>": student_b.pk,
        "<slug:action>": "override",
        "<int:assignment_id>": assignment.pk,
        "<int:pair_id>": run.pairs.get().pk,
    }


def _url(route: str, world: dict[str, object]) -> str:
    for part, value in world.items():
        route = route.replace(part, str(value))
    assert "<" not in route, f"no value for a part of {route}"
    return "/" + route


def test_the_routes_found_include_the_answer_pages() -> None:
    routes = staff_routes()
    assert "quizzes/staff/bank/lecture<int:lecture>-staff.yaml" in routes
    assert "quizzes/staff/<slug:slug>/preview/" in routes
    assert len(routes) >= 30


@pytest.mark.django_db
def test_every_staff_page_refuses_a_student(world, client_a, client_instructor) -> None:
    refused, live = {}, {}
    for route in staff_routes():
        url = _url(route, world)
        got = (client_a.get(url).status_code, client_a.post(url).status_code)
        if got[0] not in (403, 405) or got[1] not in (403, 405) or got == (405, 405):
            refused[url] = got
        staff_get = client_instructor.get(url).status_code
        if staff_get in (403, 404):
            live[url] = staff_get
    assert refused == {}, "a student was not refused (GET, POST)"
    assert live == {}, "an instructor could not reach these: the test's rows are wrong"
    assert Client().get(_url(staff_routes()[0], world)).status_code == 302  # anonymous: log in


@pytest.mark.django_db
def test_no_staff_page_takes_a_post_without_the_csrf_token(world, instructor) -> None:
    forged = Client(enforce_csrf_checks=True)
    forged.force_login(instructor)
    taken = {}
    for route in staff_routes():
        url = _url(route, world)
        response = forged.post(url, {"released": "1", "decision": "accept"})
        # The 403 must be the CSRF check's: a 403 of the view's own (a role it refuses) would pass
        # with the view csrf_exempt.
        refused_by_csrf = response.status_code == 403 and b"CSRF" in response.content
        if response.status_code != 405 and not refused_by_csrf:
            taken[url] = response.status_code
    assert taken == {}, "posted without a CSRF token"
