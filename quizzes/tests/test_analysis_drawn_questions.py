"""Item analysis and the attempts CSV cover every question students were given: the picked ones
and those a drawing rule served (different per attempt), one row / column per question."""

import csv
import io
from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from quizzes.models import Attempt, Question, Quiz, QuizRule
from quizzes.selectors import item_analysis
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_multiple, question_single, quiz_with

DRAWN = ("dq-r1", "dq-r2", "dq-r3")  # the rule's candidates (lecture 2, multiple choice)


@pytest.fixture
def ruled_quiz(db) -> Quiz:
    picked = question_single("dq-picked")
    for bank_id in DRAWN:
        question_multiple(bank_id, correct="ab")
    quiz = quiz_with([picked], slug="ruled")
    QuizRule.objects.create(quiz=quiz, lecture=2, qtype="multiple", count=2, points=Decimal("2"))
    return quiz


@pytest.fixture
def attempts(ruled_quiz) -> list[Attempt]:
    """Three students answer everything they were given; only s0 gets the drawn ones right."""
    done = []
    for i in range(3):
        student = user_create_with_role(username=f"dq{i}", password="pw-test-12345", role="student")
        attempt = attempt_start(quiz=ruled_quiz, student=student)
        assert len(attempt.question_ids) == 3  # the picked question and 2 drawn
        picked, *drawn = attempt.question_ids
        answer_save(
            attempt_id=attempt.pk, student=student, question_id=picked, data={"value": ["a"]}
        )
        for qid in drawn:
            value = ["a", "b"] if i == 0 else ["c"]
            answer_save(
                attempt_id=attempt.pk, student=student, question_id=qid, data={"value": value}
            )
        done.append(attempt_submit(attempt_id=attempt.pk))
    return done


def _served(attempts: list[Attempt], bank_id: str) -> list[Attempt]:
    """The attempts that were given this question."""
    pk = Question.objects.get(bank_id=bank_id).pk
    return [a for a in attempts if pk in a.question_ids]


def test_analysis_has_a_row_per_served_question(ruled_quiz, attempts) -> None:
    n, stats = item_analysis(ruled_quiz)
    assert n == 3
    served = [b for b in DRAWN if _served(attempts, b)]
    assert len(served) >= 2  # 2 drawn per attempt, so at least 2 distinct ones
    assert [s.question.bank_id for s in stats] == ["dq-picked", *served]
    for row in stats[1:]:
        given = _served(attempts, row.question.bank_id)
        right = [a for a in given if a.student.username == "dq0"]
        assert row.n == len(given)
        assert row.facility == pytest.approx(len(right) / len(given))
        counts = {key: count for key, _text, count, _correct in row.distribution}
        assert counts["a"] == len(right) and counts["c"] == len(given) - len(right)


def test_analysis_page_lists_drawn_questions(ruled_quiz, attempts, client_ta) -> None:
    page = client_ta.get("/quizzes/ruled/analysis/").content.decode()
    for bank_id in DRAWN:
        shown = f'data-bank-id="{bank_id}"' in page
        assert shown == bool(_served(attempts, bank_id))
    assert 'data-bank-id="dq-picked"' in page


def test_analysis_without_attempts_lists_the_picked_questions(ruled_quiz, client_ta) -> None:
    n, stats = item_analysis(ruled_quiz)
    assert n == 0 and [s.question.bank_id for s in stats] == ["dq-picked"]
    assert stats[0].facility is None and stats[0].discrimination is None
    response = client_ta.get("/quizzes/ruled/analysis/")
    assert response.status_code == 200 and 'data-bank-id="dq-picked"' in response.content.decode()


def test_csv_has_a_column_per_served_question(ruled_quiz, attempts, client_ta) -> None:
    response = client_ta.get("/quizzes/ruled/attempts.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    served = [b for b in DRAWN if _served(attempts, b)]
    assert rows[0][11:] == ["dq-picked", *served]
    for row in rows[1:]:
        cells = [Decimal(c) for c in row[11:] if c != ""]
        assert len(cells) == 3  # the picked question and the two drawn for this attempt
        assert sum(cells) == Decimal(row[8])  # the columns add up to the raw score
