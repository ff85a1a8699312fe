"""English quiz pages say "1 question" and "1 point", not "1 questions" and "1 pts".

Chinese writes a count the same way for one and many; English does not, so every count on these
pages goes through a plural form (ngettext / blocktrans count)."""

from __future__ import annotations

from decimal import Decimal
from html import unescape

import pytest
from django.conf import settings

from quizzes.authoring import RuleSpec, rule_add
from quizzes.services import QuizError, attempt_start
from quizzes.tests.factories import question_multiple, question_single, quiz_with

STAFF = "/quizzes/staff/"


def _english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _text(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200, url
    return unescape(response.content.decode())


@pytest.mark.django_db
def test_attempt_page_counts_one_point_and_one_open_question(student_a, client_a) -> None:
    one, two = question_single("cnt-1", points="1"), question_single("cnt-2", points="2.50")
    attempt = attempt_start(quiz=quiz_with([one, two], slug="counts"), student=student_a)
    _english(client_a)
    page = _text(client_a, f"/quizzes/attempt/{attempt.pk}/")
    assert "(1 point)" in page and "(2.5 points)" in page, page
    assert "pts" not in page
    # attempt.js picks this text when exactly one question is left open
    assert 'data-unanswered-one="1 question is not answered yet."' in page
    assert 'data-unanswered="%(n)s questions are not answered yet."' in page


@pytest.mark.django_db
def test_chinese_attempt_page_keeps_its_unit(student_a, client_a) -> None:
    attempt = attempt_start(quiz=quiz_with([question_single("cnt-zh")]), student=student_a)
    page = _text(client_a, f"/quizzes/attempt/{attempt.pk}/")
    assert "（1 分）" in page
    assert 'data-unanswered-one="还有 1 道题没有作答。"' in page


@pytest.mark.django_db
def test_staff_bank_preview_and_rule_count_in_english(client_ta) -> None:
    question_single("cnt-only", points="1")
    quiz = quiz_with([], slug="ruled")
    for n in range(2):
        question_multiple(f"cnt-m{n}")
    rule_add(quiz=quiz, spec=RuleSpec(count=1, points=Decimal("2"), qtype="multiple"))
    _english(client_ta)
    bank = _text(client_ta, f"{STAFF}bank/?qtype=single")
    assert "<p>1 question</p>" in bank and "(1 point)" in bank
    edit = _text(client_ta, f"{STAFF}{quiz.slug}/")
    assert "Draw 1 question, 2 points" in edit, edit
    preview = _text(client_ta, f"{STAFF}{quiz.slug}/preview/?seed=1")
    assert "1 question, 2 points in all" in preview, preview


@pytest.mark.django_db
def test_rule_refusal_counts_one_matching_question() -> None:
    from django.utils import translation

    question_multiple("cnt-lone")
    quiz = quiz_with([], slug="short")
    with translation.override("en"), pytest.raises(QuizError) as refused:
        rule_add(quiz=quiz, spec=RuleSpec(count=3, points=Decimal("1"), qtype="multiple"))
    assert str(refused.value).startswith("Only 1 question matches"), refused.value


@pytest.mark.django_db
def test_the_question_navigator_names_each_question_for_a_screen_reader(student_a, client_a):
    """It read "第 1（未作答）" in Chinese: 第 was translated alone, without 题."""
    attempt = attempt_start(quiz=quiz_with([question_single("nav-1")]), student=student_a)
    page = _text(client_a, f"/quizzes/attempt/{attempt.pk}/")
    assert '<span class="visually-hidden">第 1 题</span><span aria-hidden="true">1</span>' in page
    _english(client_a)
    page = _text(client_a, f"/quizzes/attempt/{attempt.pk}/")
    assert '<span class="visually-hidden">Question 1</span>' in page
