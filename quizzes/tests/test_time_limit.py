"""Must hold 3: an attempt past its limit is auto-submitted and later answers are refused, with
time from the server (a controllable clock, ``quizzes.clock.now``)."""

from datetime import UTC, datetime, timedelta
from decimal import Decimal

import pytest

from gradebook.models import Grade
from quizzes import clock
from quizzes.models import Attempt
from quizzes.selectors import late_attempt_ids
from quizzes.services import QuizError, SaveOutcome, answer_save, attempt_start, attempt_submit
from quizzes.tasks import expire_overdue_attempts
from quizzes.tests.factories import question_numeric, question_single, quiz_with

T0 = datetime(2026, 3, 2, 2, 0, tzinfo=UTC)


class FakeClock:
    def __init__(self, start: datetime) -> None:
        self.current = start

    def __call__(self) -> datetime:
        return self.current

    def advance(self, **delta: float) -> None:
        self.current += timedelta(**delta)


@pytest.fixture
def fake_clock(monkeypatch):
    fake = FakeClock(T0)
    monkeypatch.setattr(clock, "now", fake)
    return fake


@pytest.fixture
def timed_quiz(db):
    q1, q2 = question_single("tl-1"), question_numeric("tl-2", answer="10")
    return quiz_with([q1, q2], time_limit_minutes=10, grade_max_points=Decimal("10")), q1, q2


@pytest.fixture
def attempt_a(fake_clock, timed_quiz, student_a) -> Attempt:
    """student_a's attempt at the timed quiz, started at T0 (deadline T0 + 10 min)."""
    return attempt_start(quiz=timed_quiz[0], student=student_a)


def _answer(attempt: Attempt, question, value: str) -> SaveOutcome:
    """The attempt's own student autosaves ``value`` for ``question``."""
    return answer_save(
        attempt_id=attempt.pk,
        student=attempt.student,
        question_id=question.pk,
        data={"value": [value]},
    )


def test_answers_within_the_limit_are_saved(fake_clock, timed_quiz, attempt_a) -> None:
    _quiz, q1, _q2 = timed_quiz
    assert attempt_a.deadline == T0 + timedelta(minutes=10)
    fake_clock.advance(minutes=9, seconds=59)
    assert _answer(attempt_a, q1, "a").saved


def test_answer_after_the_limit_is_refused_and_attempt_auto_submitted(
    fake_clock, timed_quiz, student_a, attempt_a
) -> None:
    quiz, q1, q2 = timed_quiz
    fake_clock.advance(minutes=3)
    assert _answer(attempt_a, q1, "a").saved
    fake_clock.advance(minutes=8)  # 11 min after start: past the 10 min limit
    late = _answer(attempt_a, q2, "10")
    assert not late.saved and late.attempt_closed
    assert "作答时间已到" in late.message and "之前保存的答案都已保留" in late.message
    attempt_a.refresh_from_db()
    assert attempt_a.state == Attempt.State.SUBMITTED and attempt_a.auto_submitted
    # submitted at the deadline, not at the late request
    assert attempt_a.submitted_at == T0 + timedelta(minutes=10)
    assert list(attempt_a.answers.values_list("question__bank_id", "selected")) == [("tl-1", ["a"])]
    assert attempt_a.raw_score == Decimal("1.000") and attempt_a.score == Decimal("5.00")
    grade = Grade.objects.get(student=student_a, item__key=quiz.gradebook_key)
    assert grade.points == Decimal("5.00")
    # and a later try is still refused, the earlier answer still there
    assert not _answer(attempt_a, q1, "b").saved
    assert attempt_a.answers.get(question=q1).selected == ["a"]


def test_grace_absorbs_latency_only(fake_clock, timed_quiz, attempt_a) -> None:
    _quiz, q1, _q2 = timed_quiz
    fake_clock.advance(minutes=10, seconds=1)  # 1 s after the deadline: inside the 2 s grace
    assert _answer(attempt_a, q1, "a").saved
    fake_clock.advance(seconds=2)  # 3 s after: refused
    assert not _answer(attempt_a, q1, "b").saved


def test_reloading_the_page_after_expiry_auto_submits(fake_clock, attempt_a, client_a) -> None:
    fake_clock.advance(minutes=30)
    response = client_a.get(f"/quizzes/attempt/{attempt_a.pk}/")
    assert response.status_code == 302 and response["Location"].endswith("/review/")
    attempt_a.refresh_from_db()
    assert attempt_a.auto_submitted and attempt_a.submitted_at == attempt_a.deadline


def test_periodic_sweep_submits_abandoned_attempts(
    fake_clock, timed_quiz, attempt_a, student_b
) -> None:
    quiz, _q1, _q2 = timed_quiz
    fake_clock.advance(minutes=5)
    b = attempt_start(quiz=quiz, student=student_b)
    fake_clock.advance(minutes=6)  # attempt_a is over (11 min), b is not (6 min)
    assert expire_overdue_attempts() == 1  # the Celery task body, run inline
    attempt_a.refresh_from_db()
    b.refresh_from_db()
    assert attempt_a.state == Attempt.State.SUBMITTED and b.state == Attempt.State.IN_PROGRESS


def test_quiz_close_caps_the_deadline_and_late_window_applies_penalty(
    fake_clock,
    student_a,
    db,
) -> None:
    q = question_single("late-1")
    quiz = quiz_with(
        [q],
        closes_at=T0 + timedelta(minutes=5),
        late_until=T0 + timedelta(minutes=20),
        late_penalty_percent=Decimal("30"),
        time_limit_minutes=60,
    )
    attempt = attempt_start(quiz=quiz, student=student_a)
    assert attempt.deadline == T0 + timedelta(minutes=20)  # late window end < start + 60 min
    fake_clock.advance(minutes=8)
    assert _answer(attempt, q, "a").saved
    attempt = attempt_submit(attempt_id=attempt.pk)
    assert late_attempt_ids([attempt]) == {attempt.pk}
    assert attempt.score == Decimal("10.00")  # raw: the gradebook charges 30 %
    fake_clock.advance(minutes=30)
    with pytest.raises(QuizError, match="已截止"):
        attempt_start(quiz=quiz, student=student_a)


def test_quiz_not_yet_open(fake_clock, student_a, db) -> None:
    quiz = quiz_with([question_single("open-1")], opens_at=T0 + timedelta(hours=1))
    with pytest.raises(QuizError, match="尚未开放"):
        attempt_start(quiz=quiz, student=student_a)


def test_submit_inside_the_grace_at_close_is_not_late(fake_clock, student_a, db) -> None:
    q = question_single("grace-close")
    quiz = quiz_with([q], closes_at=T0 + timedelta(minutes=5), late_penalty_percent=Decimal("50"))
    attempt = attempt_start(quiz=quiz, student=student_a)
    _answer(attempt, q, "a")
    fake_clock.advance(minutes=5, seconds=1)  # the click left the browser just before the close
    attempt = attempt_submit(attempt_id=attempt.pk)
    assert not late_attempt_ids([attempt]) and attempt.submitted_at == quiz.closes_at
    assert attempt.score == Decimal("10.00")
