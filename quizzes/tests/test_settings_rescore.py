"""Changing a published quiz's gradebook maximum or grading method recomputes the grades already
given, from each attempt's stored raw score (a rescore: nothing is graded again), audited, with a
staff override kept in force, and the editor says how many students' grades it recomputed. Before,
a maximum changed 20 → 10 left a student at 18/10 and "best" → "first" left the best attempt's
score in the gradebook."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade, GradeEvent, GradeItem
from gradebook.services import grade_override
from quizzes.forms import QuizSettingsForm
from quizzes.models import Attempt, Quiz
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def _submit(quiz: Quiz, student, right: int) -> Attempt:
    """An attempt answering the first ``right`` questions right (choice a) and the rest wrong."""
    attempt = attempt_start(quiz=quiz, student=student)
    for i, qid in enumerate(sorted(attempt.question_ids)):
        value = "a" if i < right else "b"
        answer_save(attempt_id=attempt.pk, student=student, question_id=qid,
                    data={"value": [value]})  # fmt: skip
    return attempt_submit(attempt_id=attempt.pk)


def settings_data(quiz: Quiz, **changes: str) -> dict[str, str]:
    """The editor's settings form as the page fills it for ``quiz``, with ``changes`` typed."""
    form = QuizSettingsForm(instance=quiz)
    data = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
            continue
        data[name] = "" if value is None else str(value)
    return data | changes


@pytest.fixture
def quiz(db) -> Quiz:
    questions = [question_single(f"rs-{i}") for i in range(4)]
    return quiz_with(questions, slug="rescore", grade_max_points=Decimal("20"))


def _grade(student) -> Grade:
    return Grade.objects.get(student=student, item__key=Quiz.objects.get().gradebook_key)


def test_a_new_maximum_rescales_every_attempt_and_grade(quiz, student_a, client_instructor) -> None:
    _submit(quiz, student_a, right=2)  # 10 / 20
    _submit(quiz, student_a, right=3)  # 15 / 20: the best
    assert _grade(student_a).points == Decimal("15")
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/",
        settings_data(quiz, grade_max_points="10"),
        follow=True,
    )
    assert response.status_code == 200
    assert "已按新设置重新计算 1 名学生的成绩。" in response.content.decode()
    scores = list(Attempt.objects.order_by("number").values_list("score", flat=True))
    assert scores == [Decimal("5.00"), Decimal("7.50")]
    assert GradeItem.objects.get(key=quiz.gradebook_key).max_points == Decimal("10")
    grade = _grade(student_a)
    assert grade.points == Decimal("7.50")
    event = GradeEvent.objects.filter(grade=grade).latest("pk")
    assert (event.old_points, event.new_points) == (Decimal("15.00"), Decimal("7.50"))
    assert event.reason_parts["id"] == "quiz_rescore"


def test_a_new_grading_method_picks_the_attempts_again(
    quiz, student_a, student_b, instructor, client_instructor
) -> None:
    _submit(quiz, student_a, right=1)  # 5 / 20, the first
    _submit(quiz, student_a, right=4)  # 20 / 20, the best
    _submit(quiz, student_b, right=1)
    _submit(quiz, student_b, right=2)
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    grade_override(student=student_b, item=item, points="18", actor=instructor, reason="oral exam")
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/",
        settings_data(quiz, grading_method="first"),
        follow=True,
    )
    assert "已按新设置重新计算 2 名学生的成绩。" in response.content.decode()
    first_a = Attempt.objects.get(student=student_a, number=1)
    grade_a = _grade(student_a)
    assert (grade_a.points, grade_a.counted_ref) == (Decimal("5.00"), f"quiz-attempt:{first_a.pk}")
    grade_b = _grade(student_b)  # the override stays in force; the automatic score underneath moves
    assert (grade_b.points, grade_b.auto_points) == (Decimal("18.00"), Decimal("5.00"))


def test_other_settings_recompute_nothing(quiz, student_a, client_instructor) -> None:
    _submit(quiz, student_a, right=2)
    before = GradeEvent.objects.count()
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/", settings_data(quiz, title="改名"), follow=True
    )
    assert "重新计算" not in response.content.decode()
    assert GradeEvent.objects.count() == before


def test_a_save_that_changes_nothing_keeps_the_seconds_and_rescores_nothing(
    quiz, student_a, client_instructor
) -> None:
    """The page types times to the minute: a close time with seconds came back 55 s earlier,
    counted as a change, and every grade was recomputed (an audit)."""
    closes = timezone.now().replace(microsecond=0, second=55) + timedelta(days=3)
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=closes)
    quiz.refresh_from_db()
    _submit(quiz, student_a, right=2)
    before = GradeEvent.objects.count()
    typed = timezone.localtime(closes).strftime("%Y-%m-%dT%H:%M")  # as datetime-local sends it
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/",
        settings_data(quiz, closes_at=typed),
        follow=True,
    )
    assert response.status_code == 200 and "重新计算" not in response.content.decode()
    assert Quiz.objects.get(pk=quiz.pk).closes_at == closes
    assert GradeEvent.objects.count() == before


@pytest.mark.parametrize("typed", ["0001-01-01T00:00", "9999-12-31T23:59"])
def test_a_close_time_no_course_could_have_is_a_field_error(
    quiz, client_instructor, typed: str
) -> None:
    """0001-01-01 00:00 in Asia/Shanghai is before year 1 in UTC: saving it was a 500."""
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/", settings_data(quiz, closes_at=typed)
    )
    assert response.status_code == 400 and "请填写 2000 年到 2100 年之间的时间。" in (
        response.content.decode()
    )
