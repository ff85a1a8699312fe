"""Migration 0002 makes a choice's key its text-derived identity (quizzes.bank.choice_key) and
rewrites saved answers, so no answer changes meaning and a later reordering of the bank files
regrades nothing. Its data step runs here on rows shaped as before it (keys a, b, c); migrating
the whole schema back and forth would cost ~2 minutes for the same check."""

import importlib

from django.apps import apps
from django.utils import timezone

from quizzes.bank import choice_key
from quizzes.models import Answer, Attempt, Choice, Quiz
from quizzes.tests.factories import question_multiple, quiz_with

MIGRATION = importlib.import_module("quizzes.migrations.0002_bank_tags_english_choice_identity")


def test_keys_become_text_identity_and_answers_follow(db, student_a) -> None:
    question = question_multiple("m-1", correct="ac")  # choices a..d, texts "choice a".."choice d"
    quiz = quiz_with([question], slug="old", shuffle_choices=False)
    attempt = Attempt.objects.create(quiz=quiz, student=student_a, number=1, seed=1,
                                     question_ids=[question.pk], started_at=timezone.now())  # fmt: skip
    Answer.objects.create(attempt=attempt, question=question, selected=["a", "c"],
                          saved_at=timezone.now())  # fmt: skip

    MIGRATION.rekey_choices(apps, None)

    rows = {
        (c.key, c.position, c.text, c.correct) for c in Choice.objects.filter(question=question)
    }
    assert rows == {(choice_key(f"choice {k}"), i, f"choice {k}", k in "ac")
                    for i, k in enumerate("abcd")}  # fmt: skip
    answer = Answer.objects.get(attempt=attempt)
    assert answer.selected == sorted([choice_key("choice a"), choice_key("choice c")])
    assert Quiz.objects.get(pk=quiz.pk).shuffle_choices is True
    assert MIGRATION._key("choice a") == choice_key("choice a")  # the frozen copy still agrees
