"""The review of a submitted graded-quiz attempt links its student to a regrade request about
that attempt (as the lab's submission page does about a submission); the request names the
attempt. Before, the review had no link: a student who thought a question was marked wrongly had
to find the grades page, and the request there named no attempt."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from gradebook.models import RegradeRequest
from quizzes.models import Attempt
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def _submitted(student, **options) -> Attempt:
    question = question_single(f"rl-{options.get('slug', 'quiz-one')}")
    quiz = quiz_with([question], **options)
    attempt = attempt_start(quiz=quiz, student=student)
    answer_save(
        attempt_id=attempt.pk, student=student, question_id=question.pk, data={"value": ["b"]}
    )
    return attempt_submit(attempt_id=attempt.pk)


def _review(client, attempt: Attempt) -> str:
    response = client.get(f"/quizzes/attempt/{attempt.pk}/review/")
    assert response.status_code == 200
    return response.content.decode()


def _link(page: str) -> str | None:
    start = page.find('id="attempt-regrade"')
    if start < 0:
        return None
    href = page.rfind('href="', 0, start)
    return page[href + 6 : page.index('"', href + 6)].replace("&amp;", "&")


def test_the_student_asks_for_a_regrade_of_this_attempt_from_its_review(
    student_a, client_a
) -> None:
    attempt = _submitted(student_a)
    link = _link(_review(client_a, attempt))
    assert link is not None
    form = client_a.get(link)
    assert form.status_code == 200 and "测验作答 #" in form.content.decode()
    query = parse_qs(urlsplit(link).query)
    posted = client_a.post(
        "/grades/regrades/new/",
        {"item": query["item"][0], "ref": query["ref"][0], "message": "第 1 题的答案应为 B"},
    )
    assert posted.status_code == 302
    request = RegradeRequest.objects.get()
    assert (request.item.key, request.ref) == (
        attempt.quiz.gradebook_key,
        f"quiz-attempt:{attempt.pk}",
    )


def test_no_link_for_staff_practice_or_before_the_score_shows(
    student_a, client_a, client_ta
) -> None:
    graded = _submitted(student_a)
    assert _link(_review(client_ta, graded)) is None  # staff change scores on their own pages
    practice = _submitted(student_a, slug="practice-one", kind="practice")
    assert _link(_review(client_a, practice)) is None  # no grade to appeal
    hidden = _submitted(student_a, slug="hidden-one", review_points_after=False)
    assert _link(_review(client_a, hidden)) is None  # the score is not shown yet
