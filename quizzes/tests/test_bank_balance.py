"""Must hold 1 (the bank files): correct answers spread over choice positions, true/false
balanced, every question tagged, enough questions per lecture and per tag. Pure file checks, no
database: they fail at the file that breaks them."""

from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings

from quizzes.bank import load_bank_dir

BANK_DIR = Path(settings.BASE_DIR) / "content" / "quizzes"
MAX_POSITION_SHARE = 0.40  # no choice position may hold more than 40 % of a lecture's answers


@pytest.fixture(scope="module")
def banks():
    return load_bank_dir(BANK_DIR, None)


def _correct_positions(questions, qtype: str) -> Counter:
    positions: Counter = Counter()
    for q in questions:
        if q.type == qtype:
            positions.update(i for i, c in enumerate(q.choices) if c.correct)
    return positions


def test_no_position_holds_more_than_40_percent_of_single_choice_answers(banks) -> None:
    for bank in banks:
        positions = _correct_positions(bank.questions, "single")
        _worst, count = positions.most_common(1)[0]
        share = count / sum(positions.values())
        assert share <= MAX_POSITION_SHARE, (bank.path.name, dict(positions))


def test_correct_choices_of_single_and_multiple_together_are_spread(banks) -> None:
    """A lecture has only a few multiple-choice questions, so they are counted with the rest."""
    for bank in banks:
        positions = _correct_positions(bank.questions, "single")
        positions += _correct_positions(bank.questions, "multiple")
        total = sum(positions.values())
        assert max(positions.values()) / total <= MAX_POSITION_SHARE, bank.path.name
