"""Must hold 1 (counts): >= 12 questions per lecture, >= 12 parameterized, >= 120 in all, every
file valid against the notes' section anchors."""

from collections import Counter
from pathlib import Path

import pytest
from django.conf import settings

from lectures.notes import NOTES_PATH
from quizzes.bank import load_bank_dir, notes_anchors
from quizzes.generators import generate

BANK_DIR = settings.BASE_DIR / "content" / "quizzes"
NOTES = NOTES_PATH
LECTURES = {1, 2, 3, 4, 5, 7, 8, 9, 10}


@pytest.fixture(scope="module")
def banks():
    assert NOTES.exists(), f"course notes missing at {NOTES}"
    return load_bank_dir(Path(BANK_DIR), notes_anchors(NOTES))


def test_one_file_per_lecture_with_at_least_12_questions(banks) -> None:
    per_lecture = Counter()
    for bank in banks:
        per_lecture[bank.lecture] += len(bank.questions)
    assert set(per_lecture) == LECTURES
    assert min(per_lecture.values()) >= 12, per_lecture


def test_totals(banks) -> None:
    questions = [q for bank in banks for q in bank.questions]
    assert len(questions) >= 120
    assert sum(q.type == "param" for q in questions) >= 12
    assert len({q.id for q in questions}) == len(questions)


def test_every_type_is_used_and_multiple_choice_is_common(banks) -> None:
    types = Counter(q.type for bank in banks for q in bank.questions)
    assert set(types) == {"single", "multiple", "truefalse", "numeric", "param"}
    assert types["multiple"] >= 9


def test_every_parameterized_stem_renders_with_its_generator(banks) -> None:
    for bank in banks:
        for q in bank.questions:
            if q.type != "param":
                continue
            for seed in range(20):
                variant = generate(q.generator, seed)
                text = q.stem.format_map(variant.params)
                assert "{" not in text, (q.id, text)
                assert variant.answer == variant.answer and variant.answer > 0, (
                    q.id
                )  # not NaN, not degenerate


def test_explanations_name_their_section(banks) -> None:
    for bank in banks:
        for q in bank.questions:
            number = q.section.removeprefix("sec-").replace("-", ".")
            assert f"§{number}" in q.explanation, q.id
