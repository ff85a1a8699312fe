"""Must hold 3: the right answer shown for an exact-answer question, typed back, is graded right.

For 1 000 draws of every generator, ``format_number`` of the code-computed answer is parsed and
graded exactly as a student's input is (``parse_number`` + ``numeric_fraction`` against
``Decimal(repr(answer))``, the path ``quizzes.scoring.answer_fraction`` takes)."""

from decimal import Decimal

import pytest

from quizzes.generators import GENERATORS, generate
from quizzes.grading import numeric_fraction, parse_number
from quizzes.selectors import format_number

DRAWS = 1000


def _graded_right(text: str, answer: float, abs_tol: float, rel_tol: float) -> bool:
    exact = Decimal(repr(answer))
    allowed = (Decimal(repr(abs_tol)), Decimal(repr(rel_tol)))
    return numeric_fraction(parse_number(text), exact, *allowed) == 1


@pytest.mark.parametrize("name", sorted(GENERATORS))
def test_shown_answer_typed_back_is_graded_right(name: str) -> None:
    for seed in range(DRAWS):
        v = generate(name, seed)
        shown = format_number(v.answer, v.abs_tol, v.rel_tol)
        assert "e" not in shown.lower(), (name, seed, shown)
        assert _graded_right(shown, v.answer, v.abs_tol, v.rel_tol), (name, seed, v, shown)


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        (196608.0, "196608"),  # l7-p02 (wgmma FLOPs) used to show 1.966e+05
        (2**31, "2147483648"),
        (3.0, "3"),
        (0.1, "0.1"),
    ],
)
def test_exact_integers_and_short_decimals_print_in_full(value: float, shown: str) -> None:
    assert format_number(value) == shown


def test_relative_tolerance_keeps_four_significant_figures() -> None:
    assert format_number(1 / 3, 0.0, 0.01) == "0.3333"
    assert format_number(123456.789, 0.0, 0.01) == "123500"


def test_zero_tolerance_fraction_gets_every_digit_it_needs() -> None:
    shown = format_number(1 / 3, 0.0, 0.0)
    assert _graded_right(shown, 1 / 3, 0.0, 0.0) and shown.startswith("0.3333333333")
