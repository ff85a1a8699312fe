"""Pure scoring formulas (no database): partial credit, numeric tolerance, grading methods.

All return fractions in [0, 1] as Decimal so points stay exact to the cent.
Definitions follow PrairieLearn's pl-checkbox policies and Moodle's attempt grading methods.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

ZERO, ONE = Decimal("0"), Decimal("1")
FRACTION_PLACES = Decimal("0.0001")  # fractions kept to 4 decimals: 0.01 % of a question


class AnswerFormatError(ValueError):
    """The student's input cannot be read (e.g. a number field holding text)."""


class AnswerOutOfRange(AnswerFormatError):
    """A number too large or too small to be any answer (1e999999999 overflows Decimal arithmetic)."""


# Decimal exponents a numeric answer may have: 1e-100 ≤ |x| < 1e101 covers every quantity of the
# course (FLOP counts, bandwidths, latencies) by far; beyond it subtraction overflows the context.
MAX_ADJUSTED_EXPONENT = 100


def _q(value: Decimal) -> Decimal:
    return value.quantize(FRACTION_PLACES, rounding=ROUND_HALF_UP)


def choice_fraction(
    policy: str, selected: Collection[str], correct: Collection[str], all_keys: Collection[str]
) -> Decimal:
    """Fraction of a choice question earned under ``policy``.

    n = number of choices, c = correct choices, t = selected correct, f = selected wrong.
    - all_or_nothing: 1 if the selected set equals the correct set, else 0
    - net_correct:    max(0, (t - f) / c)
    - coverage:       (t / c) * (t / (t + f)); 0 when nothing is selected
    - each_answer:    (t + unselected wrong) / n   (every box is one decision)
    """
    chosen, right, keys = set(selected) & set(all_keys), set(correct), set(all_keys)
    t = len(chosen & right)
    f = len(chosen - right)
    c = len(right)
    n = len(keys)
    if policy == "all_or_nothing":
        return ONE if chosen == right else ZERO
    if policy == "net_correct":
        return _q(max(ZERO, Decimal(t - f) / Decimal(c)))
    if policy == "coverage":
        if t + f == 0:
            return ZERO
        return _q(Decimal(t) / Decimal(c) * Decimal(t) / Decimal(t + f))
    if policy == "each_answer":
        unselected_wrong = len(keys - right - chosen)
        return _q(Decimal(t + unselected_wrong) / Decimal(n))
    raise ValueError(f"unknown partial-credit policy {policy!r}")


def parse_number(raw: str) -> Decimal:
    """Read a student's numeric input; accepts '1,234.5', '1.2e3', full-width digits."""
    text = raw.strip().replace(",", "").replace("，", "").replace("−", "-")
    text = text.translate(str.maketrans("０１２３４５６７８９．", "0123456789."))
    if not text:
        raise AnswerFormatError("empty")
    try:
        value = Decimal(text)
    except InvalidOperation as exc:
        raise AnswerFormatError(raw) from exc
    if not value.is_finite():
        raise AnswerFormatError(raw)
    if value and abs(value.adjusted()) > MAX_ADJUSTED_EXPONENT:
        raise AnswerOutOfRange(raw)
    return value


def numeric_fraction(
    value: Decimal, answer: Decimal, abs_tol: Decimal, rel_tol: Decimal
) -> Decimal:
    """1 if |value - answer| <= max(abs_tol, rel_tol * |answer|), else 0."""
    allowed = max(abs_tol, rel_tol * abs(answer))
    return ONE if abs(value - answer) <= allowed else ZERO


def aggregate(method: str, scores_in_submit_order: Sequence[Decimal]) -> Decimal | None:
    """Quiz grade from the submitted attempts' scores; None when there is none."""
    if not scores_in_submit_order:
        return None
    if method == "best":
        return max(scores_in_submit_order)
    if method == "last":
        return scores_in_submit_order[-1]
    if method == "first":
        return scores_in_submit_order[0]
    if method == "average":
        total = sum(scores_in_submit_order, ZERO)
        return (total / len(scores_in_submit_order)).quantize(Decimal("0.01"), ROUND_HALF_UP)
    raise ValueError(f"unknown grading method {method!r}")


def scaled_score(raw_score: Decimal, raw_max: Decimal, grade_max: Decimal) -> Decimal:
    """Raw points scaled to the quiz's gradebook maximum. No late penalty here: the gradebook
    alone charges lateness (`gradebook/calc.py`), from the attempt's submission time."""
    if raw_max <= 0:
        return ZERO
    return (raw_score / raw_max * grade_max).quantize(Decimal("0.01"), ROUND_HALF_UP)


def counting_index(method: str, scores_in_submit_order: Sequence[Decimal]) -> int | None:
    """Index of the attempt whose time the gradebook judges lateness by (None when none).

    best / first / last: the attempt that gave the grade; average: the latest, since every
    attempt contributes and the grade was complete only then.
    """
    if not scores_in_submit_order:
        return None
    if method == "best":
        top = max(scores_in_submit_order)
        return scores_in_submit_order.index(top)  # the earliest attempt reaching the best score
    if method == "first":
        return 0
    if method in ("last", "average"):
        return len(scores_in_submit_order) - 1
    raise ValueError(f"unknown grading method {method!r}")


def quiz_grade(
    method: str, scores: Sequence[Decimal], counted: Sequence[Decimal]
) -> tuple[Decimal, int] | None:
    """(The grade to post, the index of its counting attempt) from the submitted attempts' scores
    in submit order; None when there is none. ``counted`` holds each score as the gradebook will
    count it after its late penalty (`gradebook.calc.LateRule`): "best" is the attempt worth most
    after its penalty, so a late 20 at 50 % (10) loses to an on-time 16.36. The grade posted is
    the attempt's own score: the gradebook charges the penalty, by the attempt's time."""
    index = counting_index(method, counted)
    if index is None:
        return None
    if method == "average":
        return aggregate(method, scores), index
    return scores[index], index
