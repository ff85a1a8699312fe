"""The page of a student's work says when the gradebook counts another score for the item. After a
TA accepted a regrade (0 -> 5) the quiz review and the lab's submission page still showed the
work's own score with no word that it was not the one that counts. The note is for the student and
staff, only once the item's scores are released, and only when the two scores differ. The regrade
request's page links the work it is about, as the staff pages do."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from gradebook.models import GradeItem
from gradebook.services import (
    grade_item_curve_set,
    grade_override,
    item_release_set,
    regrade_request_create,
    regrade_request_resolve,
)
from gradinglab.tests.labkit import make_assignment, scored_submission
from quizzes.services import quiz_gradebook_item
from quizzes.tests.factories import question_single, quiz_with, submit_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def wrong_attempt(student_a, monkeypatch):
    """student_a's one attempt of a one-question quiz (10 points), answered wrong: 0 points."""
    quiz = quiz_with([question_single("grade-note-1")])
    return submit_at(quiz, student_a, 0, timezone.now(), monkeypatch)


def _accept(attempt, ta, points: str):
    """student_a asks for a regrade of the attempt and the TA accepts it with ``points``."""
    item = quiz_gradebook_item(attempt.quiz)
    ref = f"quiz-attempt:{attempt.pk}"
    asked = regrade_request_create(student=attempt.student, item=item, ref=ref, message="第 1 题")
    regrade_request_resolve(
        request_id=asked.pk, actor=ta, accept=True, response="答案也对", points=points
    )
    return asked


def _note(client, url: str, lang: str = "zh-hans") -> str | None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200
    page = response.content.decode()
    if 'id="grade-note"' not in page:
        return None
    return page.split('id="grade-note">', 1)[1].split("</p>", 1)[0]


def _review(attempt) -> str:
    return f"/quizzes/attempt/{attempt.pk}/review/"


def test_the_owner_reads_the_accepted_regrade_beside_the_score(
    client_a, client_ta, ta, student_a, wrong_attempt
) -> None:
    _accept(wrong_attempt, ta, "5")
    note = _note(client_a, _review(wrong_attempt))
    assert note is not None and "成绩册中此项现为 5 分（助教改分：" in note
    assert "答案也对" in note and 'href="/grades/"' in note and "我的成绩" in note
    english = _note(client_a, _review(wrong_attempt), "en")
    assert "In the gradebook this item is now 5 points (Changed by staff: " in english
    assert "My grades" in english
    staff = _note(client_ta, _review(wrong_attempt))  # staff are sent to the student's grades
    assert staff is not None and f"/grades/staff/students/{student_a.pk}/" in staff


def test_nothing_before_release_or_when_the_scores_agree(
    client_a, client_ta, ta, instructor, wrong_attempt
) -> None:
    _accept(wrong_attempt, ta, "5")
    item_release_set(item=quiz_gradebook_item(wrong_attempt.quiz), released=False, actor=instructor)
    assert _note(client_a, _review(wrong_attempt)) is None  # an unreleased score stays unseen
    assert _note(client_ta, _review(wrong_attempt)) is None
    item_release_set(item=quiz_gradebook_item(wrong_attempt.quiz), released=True, actor=instructor)
    grade_override(
        student=wrong_attempt.student,
        item=quiz_gradebook_item(wrong_attempt.quiz),
        points="0",
        actor=ta,
        reason="复核后维持",
    )
    assert _note(client_a, _review(wrong_attempt)) is None  # the same score: nothing to say


def test_the_lab_page_names_the_override_and_the_submission_that_counts(
    client_a, ta, student_a
) -> None:
    assignment = make_assignment()
    now = timezone.now()
    lower = scored_submission(assignment, student_a, "4", now - timedelta(hours=1))
    best = scored_submission(assignment, student_a, "8", now)
    assert _note(client_a, f"/lab/submissions/{best.pk}/") is None  # the one that counts
    other = _note(client_a, f"/lab/submissions/{lower.pk}/")
    assert other is not None and "成绩册中此项现为 8 分（计入的作业：" in other
    assert f'href="/lab/submissions/{best.pk}/">提交 #{best.pk}</a>' in other
    lab_item = GradeItem.objects.get(key=assignment.grade_item_key)
    grade_override(student=student_a, item=lab_item, points="9.5", actor=ta, reason="手工复核")
    overridden = _note(client_a, f"/lab/submissions/{best.pk}/")
    assert overridden is not None and "成绩册中此项现为 9.5 分（助教改分：" in overridden


def test_the_request_page_links_the_work_it_is_about(client_ta, ta, wrong_attempt) -> None:
    asked = _accept(wrong_attempt, ta, "5")
    page = client_ta.get(f"/grades/regrades/{asked.pk}/").content.decode()
    about = page.split('id="regrade-ref">', 1)[1].split("</dd>", 1)[0]
    assert about == f'<a href="{_review(wrong_attempt)}">测验作答 #{wrong_attempt.pk}</a>'


def test_with_a_curve_the_note_says_what_counts_and_the_curve(client_a, ta, wrong_attempt) -> None:
    """The work's page shows its raw score; the gradebook counts the curved one. With a curve +5
    the page said nothing of the 5 that count; after an override it named the override alone."""
    item = quiz_gradebook_item(wrong_attempt.quiz)
    grade_item_curve_set(item=item, kind="add", value="5", actor=ta, reason="太难")
    note = _note(client_a, _review(wrong_attempt))
    assert note is not None and "成绩册中此项计入 5 分，含曲线 +5" in note
    english = _note(client_a, _review(wrong_attempt), "en")
    assert "In the gradebook this item counts 5 points with the curve +5" in english
    _accept(wrong_attempt, ta, "2")
    note = _note(client_a, _review(wrong_attempt))
    assert note is not None and "成绩册中此项现为 2 分（助教改分：" in note
    assert "），计入 7 分，含曲线 +5" in note
    english = _note(client_a, _review(wrong_attempt), "en")
    assert "In the gradebook this item is now 2 points (Changed by staff: " in english
    assert "; it counts 7 points with the curve +5" in english
