"""The grade note beside a work's score (selectors.grade_note) reads the one item it is about: it
computed the student's whole standing, every item and category, on each view of a quiz review or
a lab submission. What it says is still what the standing counts (selectors.item_result): the
whole standing is read only where that depends on the rest of the course, a GRACE item with
other works to choose from."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest

from gradebook import calc, selectors
from gradebook.models import GradebookSettings
from gradebook.services import excusal_set, grade_item_curve_set, grade_override, grade_record

pytestmark = pytest.mark.django_db

POSTED, EARLIER, OTHER = "testref:1", "testref:2", "testref:3"


def _post(student, item, past_due, *, points: int = 10, others=()):
    """The posted work (POSTED) two days late; ``others``: works the app chose it from."""
    return grade_record(
        student=student, item=item, points=points, source="lab", ref=POSTED,
        submitted_at=past_due + timedelta(hours=47), others=others,
    )  # fmt: skip


def _note_as_the_standing_says(student, item, page: str, shown: Decimal):
    """The note on the page of the work ``page`` showing ``shown``, checked against what the whole
    standing counts on the item."""
    note = selectors.grade_note(student, student, item.key, page, shown)
    result = selectors.item_result(student, item)
    if result.status != calc.GRADED or result.raw == shown:
        assert note is None
    else:
        assert note is not None and note.points == result.raw
        assert note.counted_ref == ("" if note.overridden or result.ref == page else result.ref)
    return note


def test_a_note_reads_its_item_alone(
    student_a, make_item, past_due, django_assert_max_num_queries
) -> None:
    for n in range(5):  # other items of the course, which the note has no need of
        _post(student_a, make_item(f"quiz:{n}", due_at=past_due), past_due)
    item = make_item("lab:1", due_at=past_due, late_policy="penalty", late_penalty_per_day=10)
    _post(student_a, item, past_due)
    with django_assert_max_num_queries(3):  # the viewer's roles, the grade, an excusal
        note = selectors.grade_note(student_a, student_a, item.key, OTHER, Decimal(4))
    assert note == _note_as_the_standing_says(student_a, item, OTHER, Decimal(4))
    assert note is not None and (note.points, note.counted_ref) == (10, POSTED)


def test_an_excused_item_or_an_override(student_a, make_item, past_due, ta) -> None:
    item = make_item("lab:1", due_at=past_due)
    _post(student_a, item, past_due)
    grade_override(student=student_a, item=item, points="7", actor=ta, reason="复核")
    note = _note_as_the_standing_says(student_a, item, POSTED, Decimal(10))
    assert note is not None and (note.points, note.overridden, note.counted_ref) == (7, True, "")
    excusal_set(student=student_a, item=item, actor=ta, excused=True, reason="病假")
    assert _note_as_the_standing_says(student_a, item, POSTED, Decimal(10)) is None


def test_under_grace_the_note_names_the_work_the_standing_chose(
    student_a, make_item, past_due
) -> None:
    """One grace day, 50 % a day: the posted 10, two days late, counts 5; the earlier 8, on time,
    counts 8, so the standing counts it."""
    GradebookSettings.objects.update_or_create(pk=1, defaults={"grace_days": 1})
    item = make_item("lab:1", due_at=past_due, late_policy="grace", late_penalty_per_day=50)
    earlier = calc.Score(Decimal(8), past_due - timedelta(hours=1), EARLIER)
    _post(student_a, item, past_due, others=[earlier])
    note = _note_as_the_standing_says(student_a, item, POSTED, Decimal(10))
    assert note is not None and (note.points, note.counted_ref) == (8, EARLIER)


def test_with_a_curve_the_note_carries_the_counted_score(student_a, make_item, past_due, ta):
    """The curve moves what counts away from every work's raw score; the note says so even where
    the raw scores agree (the standing's counted score, after the penalty and the curve)."""
    item = make_item("lab:1", due_at=past_due)
    _post(student_a, item, past_due, points=6)  # two days late under no penalty: 6
    grade_item_curve_set(item=item, kind="add", value="1.5", actor=ta, reason="偏难")
    note = selectors.grade_note(student_a, student_a, item.key, POSTED, Decimal(6))
    assert note is not None and (note.differs, note.counted, note.curve) == (False, 7.5, "+1.5")
    grade_item_curve_set(item=item, kind="add", value="9", actor=ta, reason="偏难")
    note = selectors.grade_note(student_a, student_a, item.key, POSTED, Decimal(6))
    assert note is not None and (note.counted, note.curve) == (10, "+9")  # held at max: +4 moved
    grade_override(student=student_a, item=item, points="10", actor=ta, reason="满分")
    assert selectors.grade_note(student_a, student_a, item.key, POSTED, Decimal(10)) is None
