"""A stem that says "保留 3 位有效数字" / "3 significant figures" keeps its word: the true answer
rounded to three significant figures earns full marks, for every drawn variant of a generator
and for a fixed numeric question, through the same grading function a submitted answer meets.
Rounding to three figures moves a value by at most half a unit of its
third figure, under 0.5 % of it, so a relative tolerance below 0.5 % could fail a correct student."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings

from quizzes.bank import QuestionSpec, load_bank_dir
from quizzes.generators import generate
from quizzes.grading import numeric_fraction

SEEDS = range(400)  # variants drawn per generator
ASKS_3_FIGURES = ("保留 3 位有效数字", "3 significant figures")


def _three_figures(value: float | Decimal) -> Decimal:
    return Decimal(f"{float(value):.3g}")  # what a student writes, e.g. 13.6 for 13.571…


def _asking() -> list[QuestionSpec]:
    banks = load_bank_dir(settings.BASE_DIR / "content" / "quizzes", anchors=None)
    questions = [q for bank in banks for q in bank.questions]
    return [q for q in questions if ASKS_3_FIGURES[0] in q.stem]


def test_the_bank_asks_for_three_figures_in_both_languages() -> None:
    asking = _asking()
    assert len(asking) >= 20  # the bank's count when written (numeric and generated)
    for q in asking:
        assert ASKS_3_FIGURES[1] in q.stem_en, q.id


@pytest.mark.parametrize("question", _asking(), ids=lambda q: q.id)
def test_the_answer_rounded_to_three_figures_earns_full_marks(question: QuestionSpec) -> None:
    if question.type == "numeric":
        cases = [(question.answer, question.abs_tol, question.rel_tol)]
    else:
        variants = [generate(question.generator, seed) for seed in SEEDS]
        cases = [(v.answer, v.abs_tol, v.rel_tol) for v in variants]
    for answer, abs_tol, rel_tol in cases:
        typed = _three_figures(answer)
        exact = [
            Decimal(repr(x)) if isinstance(x, float) else x for x in (answer, abs_tol, rel_tol)
        ]
        got = numeric_fraction(typed, *exact)  # floats as scoring.py reads a variant's
        assert got == 1, (question.id, answer, typed, rel_tol)
