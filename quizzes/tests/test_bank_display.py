"""The imported bank as a student sees it: code-reading stems show their kernel highlighted like
lecture code (not raw ``` fences), and an English reader gets the English stem, choices, unit and
explanation."""

import pytest
from django.conf import settings
from django.core.management import call_command
from django.utils.html import escape

from quizzes.models import Attempt, Question, Quiz


@pytest.fixture
def practice_l2(db):
    call_command("import_quizzes", verbosity=0)
    return Quiz.objects.get(slug="practice-l2")


def _attempt_page(client, quiz: Quiz) -> tuple[Attempt, str]:
    client.post(f"/quizzes/{quiz.slug}/start/")
    attempt = Attempt.objects.get(quiz=quiz, state=Attempt.State.IN_PROGRESS)
    return attempt, client.get(f"/quizzes/attempt/{attempt.pk}/").content.decode()


def test_code_reading_stem_shows_highlighted_kernel(practice_l2, client_a) -> None:
    _attempt, page = _attempt_page(client_a, practice_l2)
    assert '<div class="codehilite" data-lang="cuda">' in page
    assert "```" not in page
    assert "lectures/pygments.css" in page
    code_question = Question.objects.get(bank_id="l2-c01")
    section = page.split(f'id="q{code_question.pk}"', 1)[1].split("</section>", 1)[0]
    assert "__global__" in section and "codehilite" in section


def test_english_reader_gets_english_question_text(practice_l2, client_a) -> None:
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    attempt, page = _attempt_page(client_a, practice_l2)
    question = Question.objects.get(bank_id="l2-q17")  # numeric, unit KB
    assert escape(question.stem_en[:40]) in page
    assert escape(question.stem[:20]) not in page
    choice = Question.objects.get(bank_id="l2-q01").choices.get(correct=True)
    assert escape(choice.text_en) in page and escape(choice.text) not in page
    client_a.post(f"/quizzes/attempt/{attempt.pk}/answer/{question.pk}/", {"value": "8"})
    client_a.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    review = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    assert escape(question.explanation_en[:30]) in review
    assert escape(question.explanation[:15]) not in review
