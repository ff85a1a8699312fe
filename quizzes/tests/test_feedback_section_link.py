"""A question's explanation links back to its section of the notes, named by number and title in
the page's language ("回到讲义 §1.17 …"; it gave the bare number before), in the feedback right
after an answer and on the review page. The titles cost one query per page, not one a question."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.db import connection
from django.test.utils import CaptureQueriesContext

from lectures.models import Lecture, Section
from quizzes.models import Attempt, Quiz
from quizzes.tests.factories import question_multiple, question_single, quiz_with

pytestmark = pytest.mark.django_db

ZH, EN = "Amdahl 定律", "Amdahl and Speedup"


def _sections(title_en: str = EN) -> None:
    for n in (1, 2):
        lecture = Lecture.objects.create(number=n, title=f"第{n}讲", overview_md="…")
        number = {1: "1.17", 2: "2.26"}[n]
        Section.objects.create(
            lecture=lecture,
            number=number,
            slug="sec-" + number.replace(".", "-"),
            title=f"{ZH} {number}",
            title_en=f"{title_en} {number}" if title_en else "",
        )


def _practice(questions) -> Quiz:
    return quiz_with(
        questions,
        kind=Quiz.Kind.PRACTICE,
        slug="practice",
        review_correctness_during=True,
        review_explanation_during=True,
        review_explanation_after=True,
    )


def _start(client, quiz: Quiz) -> Attempt:
    response = client.post(f"/quizzes/{quiz.slug}/start/")
    assert response.status_code == 302, response.content
    return Attempt.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def _answer(client, attempt: Attempt, question, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    url = f"/quizzes/attempt/{attempt.pk}/answer/{question.pk}/"
    return client.post(url, {"value": "a"}).content.decode()


def test_feedback_names_the_section_in_the_pages_language(client_a) -> None:
    _sections()
    q = question_single("s-1")
    attempt = _start(client_a, _practice([q]))
    zh, en = _answer(client_a, attempt, q, "zh-hans"), _answer(client_a, attempt, q, "en")
    # Chinese content carries lang="zh-CN" on every page (the `content` filter), English does not.
    assert (
        f'<a href="/lectures/1/#sec-1-17">回到讲义 §1.17 <span lang="zh-CN">{ZH} 1.17</span></a>'
        in zh
    )
    assert f'<a href="/lectures/1/#sec-1-17">Back to the notes §1.17 {EN} 1.17</a>' in en


def test_a_section_without_an_english_title_shows_its_chinese_one_marked(client_a) -> None:
    _sections(title_en="")
    q = question_single("s-1")
    attempt = _start(client_a, _practice([q]))
    en = _answer(client_a, attempt, q, "en")
    assert f'Back to the notes §1.17 <span lang="zh-CN">{ZH} 1.17</span></a>' in en


def test_a_section_not_imported_still_links_by_its_number(client_a) -> None:
    q = question_single("s-1")
    attempt = _start(client_a, _practice([q]))
    assert '<a href="/lectures/1/#sec-1-17">回到讲义 §1.17</a>' in _answer(
        client_a, attempt, q, "zh-hans"
    )


def _review_queries(client, n_questions: int) -> tuple[int, str]:
    n = n_questions
    questions = [question_single(f"r-{n}-{i}") for i in range(n // 2)]
    questions += [question_multiple(f"m-{n}-{i}") for i in range(n - len(questions))]
    quiz = _practice(questions)
    Quiz.objects.filter(pk=quiz.pk).update(slug=f"practice-{n}")
    quiz.refresh_from_db()
    attempt = _start(client, quiz)
    client.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    with CaptureQueriesContext(connection) as queries:
        page = client.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    return len(queries.captured_queries), page


def test_review_names_every_section_in_one_query(client_a) -> None:
    _sections()
    few, _ = _review_queries(client_a, 2)
    many, page = _review_queries(client_a, 10)
    assert many == few
    assert page.count(f">{ZH} 1.17</span></a>") == 5 and page.count(f">{ZH} 2.26</span></a>") == 5
