""" "Best" is the attempt worth most after the gradebook's late penalty, judged by the gradebook's
one lateness rule (gradebook.calc.LateRule: the item's policy, the student's own due date). Before,
it was the best score before the penalty: 16 on time and 20 late at 50 % counted 10."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade, GradeItem
from gradebook.selectors import student_view
from gradebook.services import extension_grant, extension_revoke
from quizzes.models import Attempt, Quiz
from quizzes.tests.factories import question_single, quiz_with, submit_at

pytestmark = pytest.mark.django_db

DUE = (timezone.now() - timedelta(days=30)).replace(microsecond=0)


@pytest.fixture
def quiz(db) -> Quiz:
    return quiz_with(
        [question_single(f"bp-{i}") for i in range(5)],
        closes_at=DUE,
        late_until=DUE + timedelta(days=10),
        late_penalty_percent=Decimal("50"),
        grade_max_points=Decimal("20"),
    )


@pytest.fixture
def on_time_and_late(quiz, student_a, monkeypatch) -> tuple[Attempt, Attempt]:
    """16 an hour before the due date, then 20 an hour after it (counts 10 at 50 %)."""
    on_time = submit_at(quiz, student_a, 4, DUE - timedelta(hours=1), monkeypatch)
    return on_time, submit_at(quiz, student_a, 5, DUE + timedelta(hours=1), monkeypatch)


def _counted(student, quiz: Quiz) -> Decimal:
    row = next(r for r in student_view(student)["rows"] if r.item.key == quiz.gradebook_key)
    return row.result.counted


def test_an_on_time_attempt_beats_a_better_late_one_after_its_penalty(
    quiz, student_a, on_time_and_late
) -> None:
    on_time, _late = on_time_and_late
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (
        Decimal("16.00"),
        f"quiz-attempt:{on_time.pk}",
    )
    assert _counted(student_a, quiz) == Decimal("16.00")


def test_a_late_attempt_still_wins_when_it_is_worth_more_after_its_penalty(
    quiz, student_a, monkeypatch
) -> None:
    submit_at(quiz, student_a, 1, DUE - timedelta(hours=1), monkeypatch)  # 4
    submit_at(quiz, student_a, 5, DUE + timedelta(hours=1), monkeypatch)  # 20 late: counts 10
    assert _counted(student_a, quiz) == Decimal("10.00")


def test_the_students_extension_is_the_rule_that_judges(
    quiz, student_a, instructor, monkeypatch
) -> None:
    submit_at(quiz, student_a, 4, DUE - timedelta(hours=1), monkeypatch)  # 16
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    extension_grant(student=student_a, item=item, actor=instructor, extra_days=2)
    late = submit_at(quiz, student_a, 5, DUE + timedelta(hours=1), monkeypatch)  # on time for them
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("20.00"), f"quiz-attempt:{late.pk}")
    assert _counted(student_a, quiz) == Decimal("20.00")


def test_an_extension_granted_later_picks_the_attempt_again(
    quiz, student_a, instructor, on_time_and_late
) -> None:
    on_time, late = on_time_and_late
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    extension_grant(student=student_a, item=item, actor=instructor, extra_days=1)
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("20.00"), f"quiz-attempt:{late.pk}")
    assert _counted(student_a, quiz) == Decimal("20.00")
    assert grade.events.latest("pk").reason_parts["id"] == "due_changed"
    extension_revoke(student=student_a, item=item, actor=instructor)
    grade.refresh_from_db()
    assert grade.counted_ref == f"quiz-attempt:{on_time.pk}"
    assert _counted(student_a, quiz) == Decimal("16.00")


def test_a_new_late_policy_picks_the_attempt_again(
    quiz, student_a, instructor, on_time_and_late
) -> None:
    """Changed in the gradebook (admin or service), the policy judged again: at 10 % the late
    20 counts 18 and beats the on-time 16; it stayed at 16 until a quiz settings save."""
    from gradebook.services import grade_item_late_policy_set

    _on_time, late = on_time_and_late
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    ten = {"late_penalty_per_day": Decimal("10"), "late_penalty_cap": Decimal("10")}
    grade_item_late_policy_set(item=item, late=ten, actor=instructor)
    grade = Grade.objects.get(student=student_a)
    assert (grade.auto_points, grade.counted_ref) == (Decimal("20.00"), f"quiz-attempt:{late.pk}")
    assert _counted(student_a, quiz) == Decimal("18.00")


def test_a_penalty_saved_in_the_quiz_settings_recomputes_each_grade_once(
    quiz, student_a, instructor, on_time_and_late, monkeypatch
) -> None:
    """The new penalty reaches the gradebook item and the rescore recomputes the grade, once and
    audited as the rescore; the item's followers were called as well and did it a second time."""
    from quizzes import services

    _on_time, late = on_time_and_late
    syncs = []
    real_sync = services.quiz_grade_sync
    monkeypatch.setattr(
        services, "quiz_grade_sync", lambda **kw: syncs.append(kw) or real_sync(**kw)
    )
    quiz.late_penalty_percent = Decimal("10")
    quiz.save(update_fields=["late_penalty_percent"])
    recomputed = services.quiz_settings_apply(
        quiz=quiz, changed=["late_penalty_percent"], actor=instructor
    )
    assert recomputed == 1 and [kw["reason"].parts["id"] for kw in syncs] == ["quiz_rescore"]
    grade = Grade.objects.get(student=student_a)
    assert grade.counted_ref == f"quiz-attempt:{late.pk}"
    assert _counted(student_a, quiz) == Decimal("18.00")
