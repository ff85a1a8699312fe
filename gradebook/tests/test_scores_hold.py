"""An item's hold (GradeItem.scores_from): students see its scores from that moment, on top of
staff's release; staff always see them. The one rule is `scores_shown_q` (on queries: Grade.objects
.visible_to, the home page's recent grades) and `GradeItem.scores_shown` (on an item read: the
student's page, API, CSV and totals); these tests hold both to it, with the site's clock moved."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from conftest import admin_form_errors
from gradebook import selectors
from gradebook.models import Grade, GradeItem, scores_shown_q
from gradebook.services import grade_item_ensure, grade_record
from pdcsite import clock

pytestmark = pytest.mark.django_db

HOLD = timezone.now().replace(microsecond=0) + timedelta(days=1)


def _graded(make_item, student, **fields) -> GradeItem:
    item = make_item("exam:hold", max_points=20, **fields)
    grade_record(student=student, item=item, points=15, source="manual")
    return item


def _student_reads(student) -> dict[str, bool]:
    """Whether each student read holds the score: the grade rows, the page's row and total, the
    home page's recent grades."""
    view = selectors.student_view(student)
    row = next(r for r in view["rows"] if r.item.key == "exam:hold")
    return {
        "rows": Grade.objects.visible_to(student).exists(),
        "row": row.result is not None and row.status == "released",
        "total": view["standing"].total_percent is not None,
        "recent": bool(selectors.recent_grades(student, 5)),
    }


def test_the_hold_keeps_scores_from_students_until_it_passes(
    student_a, ta, make_item, monkeypatch
) -> None:
    _graded(make_item, student_a, scores_from=HOLD)
    monkeypatch.setattr(clock, "now", lambda: HOLD - timedelta(seconds=1))
    assert _student_reads(student_a) == dict.fromkeys(("rows", "row", "total", "recent"), False)
    assert Grade.objects.visible_to(ta).count() == 1  # staff: every grade, held or not
    monkeypatch.setattr(clock, "now", lambda: HOLD)
    assert _student_reads(student_a) == dict.fromkeys(("rows", "row", "total", "recent"), True)


def test_an_unreleased_item_stays_hidden_past_its_hold(student_a, make_item, monkeypatch) -> None:
    _graded(make_item, student_a, scores_from=HOLD, released=False)
    monkeypatch.setattr(clock, "now", lambda: HOLD + timedelta(days=1))
    assert _student_reads(student_a) == dict.fromkeys(("rows", "row", "total", "recent"), False)


@pytest.mark.parametrize("released", [True, False])
@pytest.mark.parametrize("offset", [None, -1, 0, 1])
def test_the_query_and_the_item_say_the_same(make_item, released, offset) -> None:
    """`scores_shown_q` (SQL) and `GradeItem.scores_shown` (Python) are one rule."""
    now = timezone.now()
    hold = None if offset is None else now + timedelta(seconds=offset)
    item = make_item("exam:hold", released=released, scores_from=hold)
    in_query = GradeItem.objects.filter(scores_shown_q(now), pk=item.pk).exists()
    assert in_query == item.scores_shown(now) == (released and (offset is None or offset <= 0))


def test_a_feeder_that_gives_no_hold_keeps_the_one_set(make_item) -> None:
    """A lab re-ensures its item on every result without a hold: one staff set stays."""
    item = make_item("lab:7", scores_from=HOLD)
    grade_item_ensure(key="lab:7", title="实验七", kind="lab", max_points=10)
    assert GradeItem.objects.get(pk=item.pk).scores_from == HOLD
    grade_item_ensure(key="lab:7", title="实验七", kind="lab", max_points=10, scores_from=None)
    assert GradeItem.objects.get(pk=item.pk).scores_from is None


def test_the_admin_shows_the_hold(client_instructor, make_item) -> None:
    exam = make_item("exam:hold", kind="exam")
    form = client_instructor.get(f"/admin/gradebook/gradeitem/{exam.pk}/change/").content.decode()
    assert 'name="scores_from_0"' in form and "学生可见分数的时间" in form
    quiz = make_item("quiz:77", kind="quiz", scores_from=HOLD)  # the quiz's options decide it
    form = client_instructor.get(f"/admin/gradebook/gradeitem/{quiz.pk}/change/").content.decode()
    assert "学生可见分数的时间" in form and 'name="scores_from_0"' not in form
    listing = client_instructor.get("/admin/gradebook/gradeitem/").content.decode()
    assert "column-scores_from" in listing


def test_a_refused_change_of_a_quiz_item_comes_back_without_a_server_error(
    client_instructor, make_item
) -> None:
    """The field is read-only by the key as stored: a junk key typed on a quiz item's form (the
    admin junk test's) made it editable in a form built without it, a 500."""
    quiz = make_item("quiz:78", kind="quiz", scores_from=HOLD)
    url = f"/admin/gradebook/gradeitem/{quiz.pk}/change/"
    data = {"key": "<script>", "title": "测验", "kind": "quiz", "max_points": "10"}
    errors = admin_form_errors(client_instructor, url, data, "zh-hans")
    assert "key" in errors
    assert GradeItem.objects.get(pk=quiz.pk).key == "quiz:78"
