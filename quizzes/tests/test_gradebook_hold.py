"""A quiz that shows points only once it closes holds its gradebook item's scores until then:
the quiz's gradebook item was created released, so 我的成绩, its CSV, the grades API and the home
page showed a score the quiz held back, and a student with several attempts could resubmit until
every answer scored. One rule decides it (quizzes.services.quiz_scores_from, written to
GradeItem.scores_from; students read it through Grade.objects.visible_to / GradeItem.scores_shown).
"""

from __future__ import annotations

import csv
import io
import re
from datetime import datetime, timedelta
from decimal import Decimal
from importlib import import_module

import pytest
from django.apps import apps
from django.utils import timezone

from gradebook.models import GradeItem
from gradebook.services import item_release_set
from pdcsite import clock
from quizzes.models import Quiz
from quizzes.services import (
    NEVER,
    answer_save,
    attempt_start,
    attempt_submit,
    quiz_scores_from,
    quiz_settings_apply,
)
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def _submitted_half(student, **options: object) -> Quiz:
    """A graded two-question quiz out of 10, submitted by ``student`` with one answer right (5)."""
    questions = [question_single(f"hold-{n}", correct="b") for n in (1, 2)]
    quiz = quiz_with(questions, slug="held", max_attempts=3, grade_max_points=Decimal("10"),
                     **options)  # fmt: skip
    attempt = attempt_start(quiz=quiz, student=student)
    for question, key in zip(questions, ("b", "a"), strict=True):
        answer_save(attempt_id=attempt.pk, student=student, question_id=question.pk,
                    data={"value": [key]})  # fmt: skip
    assert attempt_submit(attempt_id=attempt.pk).score == Decimal("5.00")
    return quiz


def _shown(client, quiz: Quiz) -> dict[str, bool]:
    """Where the student's score on ``quiz`` shows: 我的成绩 (its row and the course total), the
    grades API (the item and the total), the student's CSV and the home page."""
    key = quiz.gradebook_key
    page = client.get("/grades/").content.decode()
    row = page.split(f'data-key="{key}"')[1].split("</tr>")[0]
    total = page.split('id="course-total">')[1].split("</strong>")[0]
    api = client.get("/grades/api/mine").json()
    item = next(i for i in api["items"] if i["key"] == key)
    body = client.get("/grades/mine.csv").content.decode("utf-8-sig")
    line = next(r for r in csv.reader(io.StringIO(body)) if r and r[0] == key)
    home = client.get("/").content.decode()
    return {
        "page": 'class="num points"' in row,
        "page_total": total != "—",
        "api": item["points"] is not None,
        "api_total": api["total_percent"] is not None,
        "csv": line[6] != "",
        "home": f"{quiz.title}</span> <strong>" in home or f"{quiz.title} <strong>" in home,
    }


def _all(shown: bool) -> dict[str, bool]:
    return dict.fromkeys(("page", "page_total", "api", "api_total", "csv", "home"), shown)


def _at(monkeypatch, moment: datetime) -> None:
    """Move the site's clock (the quiz engine's reads it too)."""
    monkeypatch.setattr(clock, "now", lambda: moment)


def test_points_after_submitting_show_at_once(student_a, client_a) -> None:
    quiz = _submitted_half(student_a, closes_at=timezone.now() + timedelta(hours=1))
    assert GradeItem.objects.get(key=quiz.gradebook_key).scores_from is None
    assert _shown(client_a, quiz) == _all(True)


def test_points_at_the_close_wait_for_it_everywhere(student_a, client_a, monkeypatch) -> None:
    close = timezone.now() + timedelta(hours=1)
    quiz = _submitted_half(student_a, closes_at=close, review_points_after=False)
    assert GradeItem.objects.get(key=quiz.gradebook_key).scores_from == close
    assert _shown(client_a, quiz) == _all(False)
    _at(monkeypatch, close - timedelta(seconds=1))
    assert _shown(client_a, quiz) == _all(False)
    _at(monkeypatch, close)
    assert _shown(client_a, quiz) == _all(True)


def test_the_late_window_holds_them_longer(student_a, client_a, monkeypatch) -> None:
    close = timezone.now() + timedelta(hours=1)
    late_until = close + timedelta(days=1)
    quiz = _submitted_half(
        student_a, closes_at=close, late_until=late_until, review_points_after=False
    )
    _at(monkeypatch, close + timedelta(hours=1))  # closed, but late answers are still taken
    assert _shown(client_a, quiz) == _all(False)
    _at(monkeypatch, late_until)
    assert _shown(client_a, quiz) == _all(True)


def test_staff_see_the_held_score(student_a, client_a, client_ta) -> None:
    quiz = _submitted_half(
        student_a, closes_at=timezone.now() + timedelta(hours=1), review_points_after=False
    )
    assert _shown(client_a, quiz) == _all(False)
    grid = client_ta.get("/grades/staff/").content.decode()
    assert re.findall(r'<td class="num graded"[^>]*>([^<]*)</td>', grid) == ["5"]
    page = client_ta.get(f"/grades/staff/students/{student_a.pk}/").content.decode()
    assert re.findall(r'class="num counted"[^>]*><span>([^<]*)</span>', page) == ["5\n"]


def test_changing_the_quiz_moves_the_hold(student_a, client_a, instructor, monkeypatch) -> None:
    close = timezone.now() + timedelta(hours=1)
    quiz = _submitted_half(student_a, closes_at=close, review_points_after=False)
    assert _shown(client_a, quiz) == _all(False)

    quiz.review_points_after = True  # as the staff settings page and the admin save it
    quiz.save()
    quiz_settings_apply(quiz=quiz, changed=["review_points_after"], actor=instructor)
    assert _shown(client_a, quiz) == _all(True)

    quiz.review_points_after = False
    quiz.closes_at = later = close + timedelta(days=2)
    quiz.save()
    quiz_settings_apply(quiz=quiz, changed=["review_points_after", "closes_at"], actor=instructor)
    assert GradeItem.objects.get(key=quiz.gradebook_key).scores_from == later
    _at(monkeypatch, close + timedelta(minutes=1))  # the old close no longer shows it
    assert _shown(client_a, quiz) == _all(False)
    _at(monkeypatch, later)
    assert _shown(client_a, quiz) == _all(True)


def test_a_quiz_that_never_shows_points_keeps_them_hidden(
    student_a, client_a, instructor, monkeypatch
) -> None:
    close = timezone.now() + timedelta(hours=1)
    quiz = _submitted_half(
        student_a, closes_at=close, review_points_after=False, review_points_closed=False
    )
    assert quiz_scores_from(quiz) == NEVER
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    assert not item.released and item.scores_from is None
    _at(monkeypatch, close + timedelta(days=30))
    assert _shown(client_a, quiz) == _all(False)
    item_release_set(item=item, released=True, actor=instructor)  # an instructor decides
    assert _shown(client_a, quiz) == _all(True)
    quiz.closes_at = close + timedelta(days=40)  # a new date does not hide it again
    quiz.save()
    quiz_settings_apply(quiz=quiz, changed=["closes_at"], actor=instructor)
    assert GradeItem.objects.get(pk=item.pk).released


def test_turning_the_points_off_hides_a_released_item(student_a, client_a, instructor) -> None:
    quiz = _submitted_half(student_a, closes_at=timezone.now() + timedelta(hours=1))
    assert _shown(client_a, quiz) == _all(True)
    quiz.review_points_after = quiz.review_points_closed = False
    quiz.save()
    quiz_settings_apply(
        quiz=quiz, changed=["review_points_after", "review_points_closed"], actor=instructor
    )
    assert _shown(client_a, quiz) == _all(False)


def test_no_close_means_no_end_to_the_hold(student_a) -> None:
    """Points shown only once closed, on a quiz that never closes: the review never shows them
    (quizzes.selectors.review_moment never reaches "closed"), so neither does the gradebook."""
    quiz = _submitted_half(student_a, closes_at=None, review_points_after=False)
    assert quiz_scores_from(quiz) == NEVER
    assert not GradeItem.objects.get(key=quiz.gradebook_key).released


def test_the_migration_holds_the_items_made_before(student_a) -> None:
    """Items made before the hold existed get it from the migration, as the next sync would."""
    hold_scores = import_module("quizzes.migrations.0014_quiz_items_hold_scores").hold_scores
    close = timezone.now() + timedelta(hours=1)
    held = _submitted_half(student_a, closes_at=close, review_points_after=False)
    GradeItem.objects.update(scores_from=None)  # as made before the field
    hold_scores(apps, None)
    assert GradeItem.objects.get(key=held.gradebook_key).scores_from == close
    held.review_points_after = True  # a quiz showing points at once is left alone
    held.save()
    GradeItem.objects.update(scores_from=None)
    hold_scores(apps, None)
    assert GradeItem.objects.get(key=held.gradebook_key).scores_from is None
