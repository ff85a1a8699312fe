"""A quiz's admin history page (linked from the read-only page a TA sees for a published quiz)
marks the quiz's title with its language, as the change page does.

An audit signed in as a TA in English: "Change history: 第 3 讲小测" was an unmarked Chinese heading,
and the title in the breadcrumbs too, for a quiz with no English title."""

from __future__ import annotations

import pytest
from django.conf import settings

from quizzes.tests.factories import question_single, quiz_with
from tests import crawl

pytestmark = pytest.mark.django_db


def _page(client, url: str, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def test_the_history_of_a_chinese_only_quiz_speaks_english(client_ta) -> None:
    quiz = quiz_with([question_single("hist-1")], title="第 3 讲小测")  # published: read-only
    history = f"/admin/quizzes/quiz/{quiz.pk}/history/"
    assert history in _page(client_ta, f"/admin/quizzes/quiz/{quiz.pk}/change/", "en")
    page = _page(client_ta, history, "en")
    assert crawl.problems(crawl.parse(page), data_words=set(), structure=False) == []
    assert '<h1>Change history: <span lang="zh-CN">第 3 讲小测</span></h1>' in page
    chinese = _page(client_ta, history, "zh-hans")
    assert '<h1>变更历史：<span lang="zh-CN">第 3 讲小测</span></h1>' in chinese
