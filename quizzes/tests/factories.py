"""Small builders for quiz tests (real rows in the real database)."""

from __future__ import annotations

from decimal import Decimal

from quizzes.models import Choice, Question, Quiz, QuizQuestion


def question_single(bank_id: str, correct: str = "a", points: str = "1") -> Question:
    q = Question.objects.create(
        bank_id=bank_id,
        lecture=1,
        section="sec-1-17",
        qtype="single",
        stem=f"{bank_id}?",
        explanation="§1.17",
        points=Decimal(points),
    )
    for key in "abcd":
        Choice.objects.create(question=q, key=key, text=f"choice {key}", correct=key == correct)
    return q


def question_multiple(bank_id: str, correct: str = "ab", points: str = "1") -> Question:
    q = Question.objects.create(
        bank_id=bank_id,
        lecture=2,
        section="sec-2-26",
        qtype="multiple",
        stem=f"{bank_id}?",
        explanation="§2.26",
        points=Decimal(points),
    )
    for key in "abcd":
        Choice.objects.create(question=q, key=key, text=f"choice {key}", correct=key in correct)
    return q


def question_numeric(bank_id: str, answer: str = "10", abs_tol: str = "0.5") -> Question:
    return Question.objects.create(
        bank_id=bank_id,
        lecture=1,
        section="sec-1-17",
        qtype="numeric",
        stem=f"{bank_id}?",
        explanation="§1.17",
        answer_number=Decimal(answer),
        abs_tol=Decimal(abs_tol),
        unit="GB",
    )


def question_param(bank_id: str, generator: str, stem: str) -> Question:
    return Question.objects.create(
        bank_id=bank_id,
        lecture=1,
        section="sec-1-17",
        qtype="param",
        stem=stem,
        explanation="§1.17",
        generator=generator,
    )


def quiz_with(questions: list[Question], **options: object) -> Quiz:
    defaults: dict[str, object] = {
        "title": "测验一",
        "slug": "quiz-one",
        "kind": Quiz.Kind.GRADED,
        "published": True,
    }
    defaults.update(options)
    quiz = Quiz.objects.create(**defaults)
    for order, q in enumerate(questions):
        QuizQuestion.objects.create(quiz=quiz, question=q, order=order)
    return quiz
