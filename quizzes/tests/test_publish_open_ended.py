"""Publishing a graded quiz with no closing time warns (and still publishes): students can take it
at any time and no attempt is ever late. It went out without a word, and the staff learnt of it
when no late penalty was ever charged."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.utils import timezone

from quizzes.models import Quiz
from quizzes.tests.factories import question_single, quiz_with
from quizzes.tests.test_settings_rescore import settings_data

pytestmark = pytest.mark.django_db

WARNING = {
    "zh-hans": "这个计分测验没有截止时间：学生任何时候都可以作答",
    "en": "This graded quiz has no due time: students can take it at any time",
}


def _warnings(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request) if m.level_tag == "warning"]


def _draft(**options) -> Quiz:
    return quiz_with([question_single("oe-1")], slug="open-ended", published=False, **options)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_publishing_with_no_close_warns_and_publishes(client_instructor, lang) -> None:
    quiz = _draft()
    client_instructor.cookies["django_language"] = lang
    response = client_instructor.post(f"/quizzes/staff/{quiz.slug}/publish/", {"published": "1"})
    assert response.status_code == 302
    [warning] = _warnings(response)
    assert warning.startswith(WARNING[lang])
    assert Quiz.objects.get(pk=quiz.pk).published  # a warning, not a refusal


def test_publishing_with_a_close_or_taking_back_says_nothing_of_it(client_instructor) -> None:
    quiz = _draft(closes_at=timezone.now() + timedelta(days=7))
    response = client_instructor.post(f"/quizzes/staff/{quiz.slug}/publish/", {"published": "1"})
    assert Quiz.objects.get(pk=quiz.pk).published and _warnings(response) == []
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=None)
    response = client_instructor.post(f"/quizzes/staff/{quiz.slug}/publish/", {"published": "0"})
    assert not Quiz.objects.get(pk=quiz.pk).published and _warnings(response) == []


def test_clearing_a_published_quizs_close_warns(client_instructor) -> None:
    quiz = _draft(closes_at=timezone.now() + timedelta(days=7))
    Quiz.objects.filter(pk=quiz.pk).update(published=True)
    quiz.refresh_from_db()
    url = f"/quizzes/staff/{quiz.slug}/settings/"
    response = client_instructor.post(url, settings_data(quiz, title="改名"))
    assert response.status_code == 302 and _warnings(response) == []  # the close unchanged
    response = client_instructor.post(url, settings_data(quiz, closes_at=""))
    assert response.status_code == 302 and Quiz.objects.get(pk=quiz.pk).closes_at is None
    assert [w[: len(WARNING["zh-hans"])] for w in _warnings(response)] == [WARNING["zh-hans"]]


def test_publishing_in_admin_warns_too(client_instructor) -> None:
    quiz = _draft()
    data = {
        "title": quiz.title, "slug": quiz.slug, "kind": "graded", "published": "on",
        "late_penalty_percent": "0", "grading_method": "best", "partial_credit": "coverage",
        "grade_max_points": "10",
        "pool-TOTAL_FORMS": "1", "pool-INITIAL_FORMS": "1", "pool-MIN_NUM_FORMS": "0",
        "pool-MAX_NUM_FORMS": "1000", "pool-0-id": str(quiz.pool.get().pk),
        "pool-0-quiz": str(quiz.pk), "pool-0-question": str(quiz.pool.get().question_id),
        "pool-0-order": "0",
    }  # fmt: skip
    response = client_instructor.post(f"/admin/quizzes/quiz/{quiz.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Quiz.objects.get(pk=quiz.pk).published
    [warning] = _warnings(response)
    assert warning.startswith(WARNING["zh-hans"])
