from decimal import Decimal

import pytest
from django.db import transaction
from django.db.models import ProtectedError

from gradebook.models import Grade, GradeEvent, GradeEventImmutable, GradeItem
from gradebook.services import (
    GradeError,
    grade_item_ensure,
    grade_item_late_policy_set,
    grade_override,
    grade_override_clear,
    grade_record,
)


@pytest.fixture
def item(db) -> GradeItem:
    return grade_item_ensure(key="lab:1", title="vector-add", kind="lab", max_points=Decimal("100"))


@pytest.mark.django_db
def test_record_writes_grade_and_event(student_a, item) -> None:
    grade = grade_record(
        student=student_a, item=item, points=Decimal("87.5"), source="lab", reason="submission 7"
    )
    assert (grade.points, grade.auto_points, grade.source) == (
        Decimal("87.50"),
        Decimal("87.50"),
        "lab",
    )
    events = list(GradeEvent.objects.filter(grade=grade))
    assert len(events) == 1
    assert (events[0].action, events[0].old_points, events[0].new_points) == (
        "record",
        None,
        Decimal("87.50"),
    )
    assert events[0].reason == "submission 7" and events[0].student == student_a


@pytest.mark.django_db
def test_second_identical_post_changes_nothing(student_a, item) -> None:
    first = grade_record(student=student_a, item=item, points=50, source="lab")
    second = grade_record(student=student_a, item=item, points="50.00", source="lab")
    assert first.pk == second.pk and second.computed_at == first.computed_at
    assert Grade.objects.count() == 1 and GradeEvent.objects.count() == 1
    third = grade_record(student=student_a, item=item, points=60, source="lab")
    assert third.points == Decimal("60.00") and GradeEvent.objects.count() == 2
    assert GradeEvent.objects.last().old_points == Decimal("50.00")


@pytest.mark.django_db
@pytest.mark.parametrize("points", [-1, Decimal("100.01"), "abc", "NaN", float("inf")])
def test_invalid_points_write_nothing(student_a, item, points) -> None:
    with pytest.raises(GradeError):
        grade_record(student=student_a, item=item, points=points, source="lab")
    assert Grade.objects.count() == 0 and GradeEvent.objects.count() == 0


@pytest.mark.django_db
def test_record_is_atomic_when_the_audit_row_fails(student_a, item, monkeypatch) -> None:
    def boom(*args, **kwargs):
        raise RuntimeError("audit store down")

    monkeypatch.setattr(GradeEvent.objects, "create", boom)
    with pytest.raises(RuntimeError):
        grade_record(student=student_a, item=item, points=10, source="lab")
    assert Grade.objects.count() == 0  # the grade row rolled back with the failed audit row


@pytest.mark.django_db
def test_override_survives_regrade_and_clearing_restores(student_a, ta, item) -> None:
    grade_record(student=student_a, item=item, points=40, source="lab")
    with pytest.raises(GradeError, match="原因"):
        grade_override(student=student_a, item=item, points=90, actor=ta, reason="  ")
    grade_override(
        student=student_a, item=item, points=90, actor=ta, reason="timing noise on GPU 3"
    )
    regraded = grade_record(student=student_a, item=item, points=45, source="lab", reason="regrade")
    assert regraded.points == Decimal("90.00") and regraded.auto_points == Decimal("45.00")
    cleared = grade_override_clear(student=student_a, item=item, actor=ta, reason="re-measured")
    assert cleared.points == Decimal("45.00") and cleared.override_points is None
    actions = list(
        GradeEvent.objects.values_list("action", "old_points", "new_points", "actor__username")
    )
    assert actions == [
        ("record", None, Decimal("40.00"), None),
        ("override", Decimal("40.00"), Decimal("90.00"), "ta"),
        ("record", Decimal("90.00"), Decimal("90.00"), None),
        ("clear_override", Decimal("90.00"), Decimal("45.00"), "ta"),
    ]


@pytest.mark.django_db
def test_events_are_append_only(student_a, item) -> None:
    grade_record(student=student_a, item=item, points=10, source="lab")
    event = GradeEvent.objects.get()
    event.reason = "tampered"
    with pytest.raises(GradeEventImmutable):
        event.save()
    with pytest.raises(GradeEventImmutable):
        event.delete()
    with (
        pytest.raises(ProtectedError),
        transaction.atomic(),
    ):  # PROTECT: the audit row outlives its grade
        Grade.objects.all().delete()


@pytest.mark.django_db
def test_grade_item_ensure_is_idempotent_and_updates(item) -> None:
    same = grade_item_ensure(key="lab:1", title="vector-add", kind="lab", max_points=100)
    assert same.pk == item.pk and GradeItem.objects.count() == 1
    renamed = grade_item_ensure(
        key="lab:1", title="向量加法", kind="lab", max_points=50, category="labs"
    )
    assert (renamed.title, renamed.max_points, renamed.category) == (
        "向量加法",
        Decimal("50"),
        "labs",
    )
    with pytest.raises(GradeError):
        grade_item_ensure(key="lab:2", title="x", kind="lab", max_points=0)


@pytest.mark.django_db
def test_students_see_only_their_released_grades(student_a, student_b, ta, item) -> None:
    grade_record(student=student_a, item=item, points=10, source="lab")
    grade_record(student=student_b, item=item, points=20, source="lab")
    assert list(Grade.objects.visible_to(student_a).values_list("points", flat=True)) == [
        Decimal("10.00")
    ]
    assert Grade.objects.visible_to(ta).count() == 2
    GradeItem.objects.filter(pk=item.pk).update(released=False)
    assert Grade.objects.visible_to(student_a).count() == 0


@pytest.mark.django_db
def test_grade_item_ensure_sets_late_policy_only_at_creation(item) -> None:
    late = {
        "late_policy": "penalty",
        "late_penalty_per_day": Decimal("20"),
        "late_penalty_cap": Decimal("60"),
    }
    new = grade_item_ensure(key="lab:7", title="new", kind="lab", max_points=100, late=late)
    assert (new.late_policy, new.late_penalty_per_day, new.late_penalty_cap) == (
        "penalty",
        Decimal("20"),
        Decimal("60"),
    )
    # The item exists: a later ensure (a result posting) never rewrites staff's policy.
    grade_item_late_policy_set(item=new, late={"late_policy": "grace"})
    again = grade_item_ensure(key="lab:7", title="new", kind="lab", max_points=100, late=late)
    again.refresh_from_db()
    assert (again.late_policy, again.late_penalty_per_day) == ("grace", Decimal("20.00"))
    existing = grade_item_ensure(
        key="lab:1", title="vector-add", kind="lab", max_points=100, late=late
    )
    existing.refresh_from_db()
    assert existing.late_policy == "none"
    with pytest.raises(GradeError):
        grade_item_late_policy_set(item=new, late={"title": "x"})
