"""Table-driven checks of the partial-credit policies, numeric tolerance and grading methods."""

from decimal import Decimal as D

import pytest

from quizzes.grading import (
    AnswerFormatError,
    aggregate,
    choice_fraction,
    counting_index,
    numeric_fraction,
    parse_number,
    scaled_score,
)

KEYS = ["a", "b", "c", "d"]
CORRECT = ["a", "b"]

# selected -> (all_or_nothing, net_correct, coverage, each_answer); n=4, c=2
PARTIAL_TABLE = [
    ({"a", "b"}, "1", "1", "1", "1"),
    ({"a"}, "0", "0.5", "0.5", "0.75"),
    ({"a", "c"}, "0", "0", "0.25", "0.5"),
    ({"c"}, "0", "0", "0", "0.25"),
    (set(), "0", "0", "0", "0.5"),
    ({"a", "b", "c"}, "0", "0.5", "0.6667", "0.75"),
    ({"a", "b", "c", "d"}, "0", "0", "0.5", "0.5"),
    ({"c", "d"}, "0", "0", "0", "0"),
]


@pytest.mark.parametrize(("selected", "aon", "net", "cov", "each"), PARTIAL_TABLE)
def test_partial_credit_policies(selected, aon, net, cov, each) -> None:
    got = {
        policy: choice_fraction(policy, selected, CORRECT, KEYS)
        for policy in ("all_or_nothing", "net_correct", "coverage", "each_answer")
    }
    assert got == {
        "all_or_nothing": D(aon),
        "net_correct": D(net),
        "coverage": D(cov),
        "each_answer": D(each),
    }


def test_net_correct_is_floored_at_zero_not_negative() -> None:
    assert choice_fraction("net_correct", {"c", "d"}, ["a"], KEYS) == D("0")


def test_selected_keys_outside_the_question_are_ignored() -> None:
    assert choice_fraction("all_or_nothing", {"a", "b", "zz"}, CORRECT, KEYS) == D("1")


def test_unknown_policy_is_an_error() -> None:
    with pytest.raises(ValueError, match="unknown partial-credit policy"):
        choice_fraction("half", {"a"}, CORRECT, KEYS)


GRADING_TABLE = [
    # scores in submission order, best, last, first, average
    (["6", "9", "7.5"], "9", "7.5", "6", "7.5"),
    (["5"], "5", "5", "5", "5"),
    (["1", "2", "2"], "2", "2", "1", "1.67"),
    (["10", "0"], "10", "0", "10", "5"),
]


@pytest.mark.parametrize(("scores", "best", "last", "first", "average"), GRADING_TABLE)
def test_grading_methods(scores, best, last, first, average) -> None:
    values = [D(s) for s in scores]
    assert aggregate("best", values) == D(best)
    assert aggregate("last", values) == D(last)
    assert aggregate("first", values) == D(first)
    assert aggregate("average", values) == D(average)


def test_no_submitted_attempt_gives_no_grade() -> None:
    assert aggregate("best", []) is None


NUMERIC_TABLE = [
    # value, answer, abs_tol, rel_tol, right?
    ("10.5", "10", "0.5", "0", True),
    ("10.6", "10", "0.5", "0", False),
    ("202", "200", "0", "0.01", True),
    ("202.1", "200", "0", "0.01", False),
    ("197.5", "200", "3", "0.01", True),  # max(abs, rel*|answer|) = 3
    ("-3.0", "-3", "0", "0", True),
]


@pytest.mark.parametrize(("value", "answer", "abs_tol", "rel_tol", "right"), NUMERIC_TABLE)
def test_numeric_tolerance(value, answer, abs_tol, rel_tol, right) -> None:
    got = numeric_fraction(D(value), D(answer), D(abs_tol), D(rel_tol))
    assert got == (D(1) if right else D(0))


@pytest.mark.parametrize(
    ("raw", "expected"), [("1,234.5", "1234.5"), ("１２.５", "12.5"), ("−2", "-2"), ("1e3", "1E+3")]
)
def test_number_parsing(raw: str, expected: str) -> None:
    assert parse_number(raw) == D(expected)


@pytest.mark.parametrize("raw", ["", "abc", "nan", "inf", "1..2"])
def test_unreadable_numbers_are_rejected(raw: str) -> None:
    with pytest.raises(AnswerFormatError):
        parse_number(raw)


@pytest.mark.parametrize(
    ("raw", "raw_max", "grade_max", "expected"),
    [
        ("3", "4", "10", "7.50"),
        ("4", "4", "10", "10.00"),
        ("0", "0", "10", "0"),
    ],
)
def test_scaled_score_has_no_late_penalty(raw, raw_max, grade_max, expected) -> None:
    """Lateness is the gradebook's (gradebook/tests/test_lateness_rule.py), never the quiz's."""
    assert scaled_score(D(raw), D(raw_max), D(grade_max)) == D(expected)


@pytest.mark.parametrize(
    ("method", "scores", "index"),
    [
        ("best", ["3", "7", "7", "5"], 1),
        ("first", ["3", "7"], 0),
        ("last", ["3", "7"], 1),
        ("average", ["3", "7"], 1),
        ("best", [], None),
    ],
)
def test_counting_attempt(method, scores, index) -> None:
    assert counting_index(method, [D(s) for s in scores]) == index
