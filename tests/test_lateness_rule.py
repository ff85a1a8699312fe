"""Must hold 3 (issue 14): one lateness rule. A late quiz and a late lab, with and without an
extension, grace days and an excusal, get exactly the penalty docs/gradebook.md documents:

    days late  = started 24 h periods after the (extended) due date
    penalty %  = min(per_day × days not paid by grace days, cap)
    counted    = raw × (100 − penalty %) / 100; an excused item does not count at all

Both apps post raw points through their real paths (a quiz attempt submitted on a controlled clock;
a lab submission graded by the worker API); the gradebook alone decides the penalty.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook import calc
from gradebook.models import GradebookSettings, GradeItem
from gradebook.selectors import student_view
from gradebook.services import excusal_set, extension_grant, grade_item_late_policy_set
from gradinglab.services.submissions import submission_create
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import (
    correct_source,
    load_doc,
    make_assignment,
    post_result,
    purge,
    take_jobs,
)
from quizzes import clock
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def worker_token(db) -> str:
    return worker_token_create(name="cpu-lateness", kind="cpu")


DUE = (timezone.now() - timedelta(days=30)).replace(microsecond=0)
PENALTY = {"late_policy": "penalty", "late_penalty_per_day": 10, "late_penalty_cap": 30}
GRACE = {"late_policy": "grace", "late_penalty_per_day": 10, "late_penalty_cap": 100}


@dataclass(frozen=True)
class Case:
    name: str
    late: timedelta  # how long after the item's due date the work was submitted
    policy: dict | None  # staff's policy on the gradebook item; None keeps the app's initial one
    extra_days: int | None = None
    grace_budget: int = 3
    excused: bool = False
    penalty: str = "0"  # expected percent
    status: str = calc.GRADED


CASES = [
    Case("on time", timedelta(hours=-1), PENALTY),
    Case("1 s late is a whole day", timedelta(seconds=1), PENALTY, penalty="10"),
    Case("25 h late = 2 days", timedelta(hours=25), PENALTY, penalty="20"),
    Case("5 days, capped", timedelta(days=4, hours=1), PENALTY, penalty="30"),
    Case("extension covers it", timedelta(hours=25), PENALTY, extra_days=3),
    Case("extension covers part", timedelta(hours=25), PENALTY, extra_days=1, penalty="10"),
    Case("grace days pay 2 days", timedelta(hours=25), GRACE),
    Case("grace budget 3, 5 days late", timedelta(days=4, hours=1), GRACE, penalty="20"),
    Case("no grace budget", timedelta(hours=25), GRACE, grace_budget=0, penalty="20"),
    Case("grace after extension", timedelta(days=4, hours=1), GRACE, extra_days=2, penalty="0"),
    Case("excused", timedelta(days=4, hours=1), PENALTY, excused=True, status=calc.EXCUSED),
]


def _quiz_item(student, case: Case, monkeypatch) -> GradeItem:
    quiz = quiz_with(
        [question_single("late-q")],
        closes_at=DUE,
        late_until=DUE + timedelta(days=10),
        late_penalty_percent=Decimal("40"),  # the quiz's own initial policy (flat 40 %)
        grade_max_points=Decimal("10"),
    )
    now = {"t": DUE + case.late - timedelta(minutes=10)}
    monkeypatch.setattr(clock, "now", lambda: now["t"])
    attempt = attempt_start(quiz=quiz, student=student)
    answer_save(attempt_id=attempt.pk, student=student, question_id=attempt.question_ids[0],
                data={"value": ["a"]})  # fmt: skip
    now["t"] = DUE + case.late
    attempt_submit(attempt_id=attempt.pk)
    return GradeItem.objects.get(key=quiz.gradebook_key)


def _lab_item(student, case: Case, client, worker_token, capture) -> GradeItem:
    assignment = make_assignment(
        due_at=DUE, late_until=DUE + timedelta(days=10), late_policy="none"
    )
    purge()
    with capture(execute=True):
        submission_create(
            student=student,
            assignment=assignment,
            backend="triton",
            source=correct_source(),
            now=DUE + case.late,
        )
    (job,) = take_jobs()
    assert (
        post_result(client, worker_token, job["job_token"], load_doc("accepted")).status_code == 201
    )
    return GradeItem.objects.get(key=assignment.grade_item_key)


def _apply_staff_decisions(item: GradeItem, student, actor, case: Case) -> None:
    if case.policy is not None:
        grade_item_late_policy_set(item=item, late=case.policy)
    settings = GradebookSettings.current()
    settings.grace_days = case.grace_budget
    settings.save()
    if case.extra_days:
        extension_grant(student=student, item=item, actor=actor, extra_days=case.extra_days)
    if case.excused:
        excusal_set(student=student, item=item, actor=actor, excused=True, reason="ill")


def _result(student, item: GradeItem) -> calc.ItemResult:
    row = next(r for r in student_view(student)["rows"] if r.item.pk == item.pk)
    return row.result


def _expect(result: calc.ItemResult, case: Case, max_points: Decimal) -> None:
    assert result.status == case.status, case.name
    if case.excused:
        assert result.counted is None and result.penalty_percent == 0
        return
    assert result.raw == max_points  # raw points: the app charged nothing itself
    assert result.penalty_percent == Decimal(case.penalty), case.name
    assert result.counted == calc.q2(max_points * (100 - Decimal(case.penalty)) / 100)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_late_quiz(case: Case, student_a, instructor, monkeypatch) -> None:
    item = _quiz_item(student_a, case, monkeypatch)
    _apply_staff_decisions(item, student_a, instructor, case)
    _expect(_result(student_a, item), case, Decimal("10"))


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_late_lab(
    case: Case, student_a, instructor, client, worker_token, django_capture_on_commit_callbacks
) -> None:
    item = _lab_item(student_a, case, client, worker_token, django_capture_on_commit_callbacks)
    _apply_staff_decisions(item, student_a, instructor, case)
    _expect(_result(student_a, item), case, Decimal("10"))


@pytest.mark.parametrize(
    ("late", "penalty"), [(timedelta(hours=-1), "0"), (timedelta(seconds=1), "40"),
                          (timedelta(days=3), "40")],
)  # fmt: skip
def test_quiz_initial_policy_is_a_flat_penalty_in_the_gradebook(
    late, penalty, student_a, monkeypatch
) -> None:
    """The quiz's own "迟交扣分 %" becomes its item's policy once: any lateness costs that percent."""
    case = Case("initial", late, None, penalty=penalty)
    item = _quiz_item(student_a, case, monkeypatch)
    _expect(_result(student_a, item), case, Decimal("10"))


def test_results_never_overwrite_the_staff_policy(
    student_a, client, worker_token, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    """A second result (lab) or attempt (quiz) re-ensures the item but keeps staff's edit."""
    case = Case("staff edit", timedelta(hours=25), None)
    lab = _lab_item(student_a, case, client, worker_token, django_capture_on_commit_callbacks)
    grade_item_late_policy_set(item=lab, late=GRACE)
    from gradinglab.models import Assignment
    from gradinglab.services.results import assignment_grade_sync

    assignment_grade_sync(assignment=Assignment.objects.get(), student=student_a)
    lab.refresh_from_db()
    assert lab.late_policy == "grace"
    quiz_item = _quiz_item(student_a, case, monkeypatch)
    grade_item_late_policy_set(item=quiz_item, late=PENALTY)
    from quizzes.models import Quiz

    attempt = attempt_start(quiz=Quiz.objects.get(), student=student_a)
    attempt_submit(attempt_id=attempt.pk)
    quiz_item.refresh_from_db()
    assert (quiz_item.late_policy, quiz_item.late_penalty_cap) == ("penalty", Decimal("30.00"))
