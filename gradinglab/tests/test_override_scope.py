"""Must hold 5 (issue 14): overrides say what they change. The form shows the current gradebook
score and which submission counted; a submission override changes that submission's score only
(the item follows its best submission), an item override changes the item only; each leaves an
audit row; errors name the item, never its internal key."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade, GradeEvent, GradeItem
from gradebook.services import grade_item_curve_set
from gradinglab.models import Submission
from gradinglab.services.results import assignment_grade_sync
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def _graded(assignment, student, scores: tuple[str, ...]) -> list[Submission]:
    """Accepted submissions with these scores (sources a, b, ...), then the gradebook synced."""
    made = [
        Submission.objects.create(
            assignment=assignment,
            student=student,
            backend="triton",
            source=src,
            sha256=src * 64,
            created_at=timezone.now(),
            status="accepted",
            score=Decimal(score),
        )
        for score, src in zip(scores, "abcdefgh", strict=False)
    ]
    assignment_grade_sync(assignment=assignment, student=student)
    return made


@pytest.fixture
def two_submissions(student_a):
    assignment = make_assignment(title="向量加法实验")
    best, other = _graded(assignment, student_a, ("10.00", "5.00"))
    return assignment, best, other


def _url(sub) -> str:
    return f"/admin/gradinglab/submission/{sub.pk}/override/"


def test_the_submission_page_links_to_the_override_form(client_ta, two_submissions) -> None:
    """The link's method was named like the model field score_override, which won: the page
    showed the field's dash and no link, so the form was reached only by typing its URL."""
    _assignment, best, _other = two_submissions
    page = client_ta.get(f"/admin/gradinglab/submission/{best.pk}/change/").content.decode()
    assert f'href="{_url(best)}"' in page and "改分…" in page


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("zh-hans", "学生会看到这条理由（提交页面与成绩册中）。"),
        ("en", "The student sees this reason (on the submission's page and in their grades)."),
    ],
)
def test_the_form_says_the_student_reads_the_reason(client_ta, two_submissions, lang, said):
    """The reason shows on the student's submission page and grades (c62b686); the form said
    nothing of it, while the flag form did (a review)."""
    client_ta.cookies["django_language"] = lang
    assert said in client_ta.get(_url(two_submissions[1])).content.decode()


def test_form_shows_current_score_and_which_submission_counted(client_ta, two_submissions):
    _assignment, best, other = two_submissions
    page = client_ta.get(_url(other)).content.decode()
    current = page.split('id="current-grade">')[1].split("</td>")[0]
    counted = page.split('id="counted-submission">')[1].split("</td>")[0]
    assert "10.00" in current and f"#{best.pk}" in counted
    assert "只改这一次提交的分数" in page and "替换整个成绩项的分数" in page
    assert "lab:" not in page  # item names, never internal keys


def test_form_says_an_override_is_curved_too(client_ta, ta, two_submissions) -> None:
    """The gradebook curves an overridden score like every other (docs/gradebook.md), so the
    person typing one is told before saving."""
    _assignment, best, _other = two_submissions
    assert 'id="item-curve"' not in client_ta.get(_url(best)).content.decode()
    item = GradeItem.objects.get(grades__student=best.student)
    grade_item_curve_set(item=item, kind="add", value="1", actor=ta, reason="难")
    assert "本项有曲线 +1" in client_ta.get(_url(best)).content.decode()


def test_submission_override_changes_that_submission_only(client_ta, ta, two_submissions):
    assignment, best, other = two_submissions
    response = client_ta.post(
        _url(best), {"scope": "submission", "points": "3", "reason": "计时作弊"}
    )
    assert response.status_code == 302
    best.refresh_from_db()
    other.refresh_from_db()
    assert (best.score, best.score_override) == (Decimal("10.00"), Decimal("3.00"))
    assert (other.score, other.score_override) == (Decimal("5.00"), None)
    grade = Grade.objects.get(item__key=assignment.grade_item_key)
    # The item is not overridden: it follows the best submission, which is now the other one.
    assert (grade.points, grade.override_points) == (Decimal("5.00"), None)
    assert grade.counted_ref == f"submission:{other.pk}"
    audit = GradeEvent.objects.get(action=GradeEvent.Action.SUBMISSION_OVERRIDE)
    assert (
        audit.actor == ta
        and f"submission #{best.pk}" in audit.reason
        and "计时作弊" in audit.reason
        and "10.00 → 3.00" in audit.reason  # one precision on both sides, as the column holds it
    )
    assert GradeEvent.objects.filter(action="record", actor=ta, new_points=Decimal("5")).exists()


def test_item_override_changes_the_item_only(client_ta, ta, two_submissions):
    assignment, best, other = two_submissions
    response = client_ta.post(_url(other), {"scope": "item", "points": "7", "reason": "补交材料"})
    assert response.status_code == 302
    grade = Grade.objects.get(item__key=assignment.grade_item_key)
    assert (grade.points, grade.override_points, grade.auto_points) == (
        Decimal("7.00"), Decimal("7.00"), Decimal("10.00"),
    )  # fmt: skip
    assert list(Submission.objects.values_list("score_override", flat=True)) == [None, None]
    audit = GradeEvent.objects.get(action=GradeEvent.Action.OVERRIDE)
    assert audit.actor == ta and audit.old_points == Decimal("10.00") and "补交材料" in audit.reason


def test_out_of_range_names_the_item(client_ta, two_submissions):
    _assignment, best, _other = two_submissions
    for scope in ("submission", "item"):
        page = client_ta.post(_url(best), {"scope": scope, "points": "99", "reason": "x"})
        body = page.content.decode()
        assert page.status_code == 200 and "超出 0…10" in body and "向量加法实验" in body
        assert "lab:" not in body
    assert not GradeEvent.objects.filter(action__in=["override", "sub_override"]).exists()


def test_out_of_range_names_an_untitled_item_in_the_pages_language(client_ta, student_a):
    """No title: the problem's name, in English on an English page (both scopes)."""
    (sub,) = _graded(make_assignment(), student_a, ("10.00",))
    client_ta.cookies["django_language"] = "en"
    for scope in ("submission", "item"):
        page = client_ta.post(_url(sub), {"scope": scope, "points": "99", "reason": "x"})
        body = page.content.decode()
        assert page.status_code == 200 and "outside 0…10" in body, scope
        assert body.count("<h1") == 1, scope  # the admin's title, not a second one of our own
        assert "for Lab: Vector addition." in body or "for Vector addition." in body, scope
        main = body.split('id="content"', 1)[1]
        assert "向量加法" not in main and "（" not in main, scope


def test_student_cannot_override(client_a, two_submissions):
    _assignment, best, _other = two_submissions
    client_a.post(_url(best), {"scope": "item", "points": "10", "reason": "x"})
    assert not GradeEvent.objects.filter(action__in=["override", "sub_override"]).exists()


def test_gradebook_override_form_shows_current_score(client_ta, student_a, two_submissions):
    assignment, best, _other = two_submissions
    item = Grade.objects.get(item__key=assignment.grade_item_key).item
    page = client_ta.get(f"/grades/staff/students/{student_a.pk}/?item={item.pk}").content.decode()
    current = page.split('id="override-current">')[1].split("</p>")[0]
    assert "<strong>10</strong> / 10" in current and f"提交 #{best.pk}" in current
    assert "向量加法实验" in current


def test_the_lab_index_shows_the_best_score_with_a_tas_override(ta, two_submissions) -> None:
    """It showed the automatic 10 after a TA set that submission to 3 (the gradebook said 5)."""
    from gradinglab.selectors import lab_index
    from gradinglab.services.results import submission_score_override

    _assignment, best, _other = two_submissions
    submission_score_override(submission=best, points=Decimal("3"), actor=ta, reason="复核后改分")
    (row,) = [r for r in lab_index(best.student) if r.assignment == best.assignment]
    assert row.best == Decimal("5.00")
