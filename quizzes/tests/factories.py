"""Small builders for quiz tests (real rows in the real database)."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from quizzes import clock
from quizzes.models import Attempt, Choice, Question, Quiz, QuizQuestion
from quizzes.services import answer_save, attempt_start, attempt_submit


def _choice_question(bank_id: str, lecture: int, qtype: str, correct: str, points: str) -> Question:
    """A question of four choices a–d; the keys in `correct` are the right ones."""
    section, explanation = {1: ("sec-1-17", "§1.17"), 2: ("sec-2-26", "§2.26")}[lecture]
    q = Question.objects.create(
        bank_id=bank_id,
        lecture=lecture,
        section=section,
        qtype=qtype,
        stem=f"{bank_id}?",
        explanation=explanation,
        points=Decimal(points),
    )
    for key in "abcd":
        Choice.objects.create(question=q, key=key, text=f"choice {key}", correct=key in correct)
    return q


def question_single(bank_id: str, correct: str = "a", points: str = "1") -> Question:
    return _choice_question(bank_id, 1, "single", correct, points)


def question_multiple(bank_id: str, correct: str = "ab", points: str = "1") -> Question:
    return _choice_question(bank_id, 2, "multiple", correct, points)


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


def late_quiz(*, slug: str, closes_at: datetime, late_days: int, penalty: str) -> Quiz:
    """A one-question graded quiz that takes late attempts for `late_days` days after it closes,
    at `penalty` percent off."""
    return quiz_with(
        [question_single(f"{slug}-1")],
        slug=slug,
        closes_at=closes_at,
        late_until=closes_at + timedelta(days=late_days),
        late_penalty_percent=Decimal(penalty),
    )


def submit_at(quiz: Quiz, student, right: int, at: datetime, monkeypatch) -> Attempt:
    """An attempt submitted at ``at`` with its first ``right`` questions (of single-choice
    questions whose right key is "a", in question-id order) answered right, the rest wrong."""
    monkeypatch.setattr(clock, "now", lambda: at)
    attempt = attempt_start(quiz=quiz, student=student)
    for i, qid in enumerate(sorted(attempt.question_ids)):
        answer_save(attempt_id=attempt.pk, student=student, question_id=qid,
                    data={"value": ["a" if i < right else "b"]})  # fmt: skip
    return attempt_submit(attempt_id=attempt.pk)
