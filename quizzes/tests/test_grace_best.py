"""Under a GRACE policy the "best" attempt is chosen with the grace days left at the quiz (in the
gradebook's earliest-deadline-first order), not before them: at 20 %/day with 2 grace days an
on-time 80 and a 2-days-late 100 counted 80 (the 100 judged as 60), though grace covers the 100."""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import timezone

from gradebook.models import GradebookSettings, GradeEvent, GradeItem
from gradebook.selectors import grid
from gradebook.services import (
    excusal_set,
    grade_item_ensure,
    grade_item_late_policy_set,
    grade_record,
)
from quizzes.models import Quiz
from quizzes.services import quiz_gradebook_item
from quizzes.tests.factories import question_single, quiz_with, submit_at

pytestmark = pytest.mark.django_db

DUE = (timezone.now() - timedelta(days=30)).replace(microsecond=0)
GRACE = {
    "late_policy": "grace",
    "late_penalty_per_day": Decimal(20),
    "late_penalty_cap": Decimal(100),
}


@pytest.fixture
def quiz(db, instructor) -> Quiz:
    GradebookSettings.objects.update_or_create(pk=1, defaults={"grace_days": 2})
    made = quiz_with(
        [question_single(f"gb-{i}") for i in range(5)],
        closes_at=DUE,
        late_until=DUE + timedelta(days=10),
        late_penalty_percent=Decimal("20"),
        grade_max_points=Decimal("100"),
    )
    grade_item_late_policy_set(item=quiz_gradebook_item(made), late=GRACE, actor=instructor)
    return made


def _row(page: str, key: str) -> str:
    return page.split(f'data-key="{key}"', 1)[1].split("</tr>", 1)[0]


def _total(page: str) -> str:
    return page.split('id="course-total">', 1)[1].split("</strong>", 1)[0]


def test_grace_days_make_the_late_100_the_best(quiz, student_a, client_a, monkeypatch) -> None:
    submit_at(quiz, student_a, 4, DUE - timedelta(hours=1), monkeypatch)  # 80 on time
    late = submit_at(quiz, student_a, 5, DUE + timedelta(hours=36), monkeypatch)  # 100, 2 days
    page = client_a.get("/grades/").content.decode()
    row = _row(page, quiz.gradebook_key)
    assert "迟 2 天，扣 0%（用宽限 2 天）" in row and ">100<" in row
    assert "宽限天数：已用 2 / 共 2，剩余 0" in page
    (grid_row,) = grid()["rows"]
    (cell,) = [c for c in grid_row.cells if c.key == quiz.gradebook_key]
    assert (cell.raw, cell.counted, cell.ref) == (
        Decimal("100.00"),
        Decimal("100.00"),
        f"quiz-attempt:{late.pk}",
    )
    assert _total(page) == f"{grid_row.total.normalize():f}%" == "100%"
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    row = _row(client_a.get("/grades/").content.decode(), quiz.gradebook_key)
    assert "2 days late, −0% (2 grace days used)" in row, row  # was "day(s)"


def test_grace_spent_on_an_earlier_item_keeps_the_on_time_80(
    quiz, student_a, client_a, instructor, monkeypatch
) -> None:
    earlier = grade_item_ensure(
        key="lab:earlier", title="早一点的实验", kind="lab", max_points=Decimal(100),
        category="lab", due_at=DUE - timedelta(days=1),
    )  # fmt: skip
    GradeItem.objects.filter(pk=earlier.pk).update(**GRACE)
    at = DUE + timedelta(hours=12)  # 2 days late: both grace days
    grade_record(student=student_a, item=earlier, points=Decimal(50), source="lab", submitted_at=at)
    submit_at(quiz, student_a, 4, DUE - timedelta(hours=1), monkeypatch)  # 80 on time
    submit_at(quiz, student_a, 5, DUE + timedelta(hours=36), monkeypatch)  # 100, would be 60
    page = client_a.get("/grades/").content.decode()
    row = _row(page, quiz.gradebook_key)
    assert ">80<" in row and 'data-label="迟交扣分">—<' in row
    assert "迟 2 天，扣 0%（用宽限 2 天）" in _row(page, "lab:earlier")
    (grid_row,) = grid()["rows"]
    assert _total(page) == f"{grid_row.total.normalize():f}%"
    # Once the earlier item needs no grace days, they cover the late 100.
    excusal_set(student=student_a, item=earlier, actor=instructor, excused=True, reason="病假")
    page = client_a.get("/grades/").content.decode()
    assert "迟 2 天，扣 0%（用宽限 2 天）" in _row(page, quiz.gradebook_key)
    (grid_row,) = grid()["rows"]
    assert _total(page) == f"{grid_row.total.normalize():f}%" == "100%"


def test_the_item_csv_and_the_history_say_which_work_counts(
    quiz, student_a, client_instructor, monkeypatch
) -> None:
    """The item CSV's points, penalty and counted are of one work, the one the standing counts;
    and the late 100 that became a candidate (the posted 80 unchanged) has its audit row. A
    review found a row reading points 80, penalty 0, counted 100, and no event for the 100."""
    submit_at(quiz, student_a, 4, DUE - timedelta(hours=1), monkeypatch)  # 80 on time
    events = GradeEvent.objects.filter(grade__student=student_a)
    before = events.count()
    submit_at(quiz, student_a, 5, DUE + timedelta(hours=36), monkeypatch)  # 100, 2 days late
    assert events.count() == before + 1
    assert events.latest("pk").new_points == Decimal("80.00")  # the posted work's
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    text = client_instructor.get(f"/grades/staff/items/{item.pk}/export.csv").content
    rows = csv.DictReader(io.StringIO(text.decode("utf-8-sig")))
    row = next(r for r in rows if r["username"] == student_a.username)
    assert (row["points"], row["counted"]) == ("100.00", "100.00"), row
