"""Score one saved answer against its question (reads the bank row and, for parameterized
questions, recomputes the variant from the attempt's seed)."""

from __future__ import annotations

from decimal import Decimal

from quizzes.generators import Variant, generate, variant_seed
from quizzes.grading import AnswerFormatError, choice_fraction, numeric_fraction, parse_number

ZERO = Decimal("0")


def question_variant(question, attempt_seed: int) -> Variant | None:
    """The drawn numbers of a parameterized question for one attempt (None for other types)."""
    if question.qtype != "param":
        return None
    return generate(question.generator, variant_seed(attempt_seed, question.bank_id))


def correct_keys(question) -> list[str]:
    return [c.key for c in question.choices.all() if c.correct]


def answer_fraction(quiz, question, answer, attempt_seed: int) -> Decimal:
    """Fraction in [0, 1] of ``question`` earned by ``answer`` under the quiz's policy."""
    qtype = question.qtype
    if qtype in ("single", "multiple"):
        keys = [c.key for c in question.choices.all()]
        policy = quiz.partial_credit if qtype == "multiple" else "all_or_nothing"
        return choice_fraction(policy, answer.selected, correct_keys(question), keys)
    if qtype == "truefalse":
        if answer.value not in ("true", "false"):
            return ZERO
        return Decimal(1) if (answer.value == "true") == question.answer_bool else ZERO
    try:
        value = parse_number(answer.value)
    except AnswerFormatError:
        return ZERO
    if qtype == "numeric":
        return numeric_fraction(value, question.answer_number, question.abs_tol, question.rel_tol)
    variant = question_variant(question, attempt_seed)
    return numeric_fraction(
        value,
        Decimal(repr(variant.answer)),
        Decimal(repr(variant.abs_tol)),
        Decimal(repr(variant.rel_tol)),
    )
