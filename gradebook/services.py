"""The one way a score changes. Quizzes and the lab call `grade_record`; staff call the override pair."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone

from gradebook.models import Grade, GradeEvent, GradeItem

_CENT = Decimal("0.01")


class GradeError(ValueError):
    """A score that cannot be recorded (out of range, missing reason, …)."""


def _quantize(points: Decimal | int | float | str) -> Decimal:
    try:
        value = Decimal(str(points)).quantize(_CENT)
    except Exception as exc:  # decimal.InvalidOperation and friends
        raise GradeError(f"points {points!r} is not a number") from exc
    if not value.is_finite():
        raise GradeError(f"points {points!r} is not finite")
    return value


def _check_range(item: GradeItem, value: Decimal) -> None:
    if value < 0 or value > item.max_points:
        raise GradeError(f"points {value} outside 0…{item.max_points} for {item.key}")


def grade_item_ensure(
    *,
    key: str,
    title: str,
    kind: str,
    max_points: Decimal | int,
    category: str | None = None,
    due_at: datetime | None = None,
    weight: Decimal | int = 1,
) -> GradeItem:
    """Create the item or update its descriptive fields; keeps staff's release choice."""
    if Decimal(str(max_points)) <= 0:
        raise GradeError("max_points must be positive")
    fields = {
        "title": title,
        "kind": kind,
        "category": category or kind,
        "max_points": Decimal(str(max_points)),
        "due_at": due_at,
        "weight": Decimal(str(weight)),
    }
    item, created = GradeItem.objects.get_or_create(key=key, defaults=fields)
    if not created and any(getattr(item, name) != value for name, value in fields.items()):
        for name, value in fields.items():
            setattr(item, name, value)
        item.save(update_fields=list(fields))
    return item


def _locked_grade(
    student: AbstractBaseUser, item: GradeItem, source: str, now: datetime
) -> tuple[Grade, bool]:
    """The (student, item) row, locked; created if absent. Safe against a concurrent first post."""
    grade = Grade.objects.select_for_update().filter(student=student, item=item).first()
    if grade is not None:
        return grade, False
    try:
        with transaction.atomic():
            grade = Grade.objects.create(
                student=student, item=item, points=Decimal("0"), source=source, computed_at=now
            )
        return grade, True
    except IntegrityError:  # another transaction created it first: lock theirs
        return Grade.objects.select_for_update().get(student=student, item=item), False


def _event(
    grade: Grade, *, action: str, old: Decimal | None, actor, reason: str, now: datetime
) -> None:
    GradeEvent.objects.create(
        grade=grade,
        item=grade.item,
        student=grade.student,
        actor=actor,
        action=action,
        source=grade.source,
        old_points=old,
        new_points=grade.points,
        reason=reason,
        at=now,
    )


@transaction.atomic
def grade_record(
    *,
    student: AbstractBaseUser,
    item: GradeItem,
    points: Decimal | int | float | str,
    source: str,
    actor: AbstractBaseUser | None = None,
    reason: str = "",
    submitted_at: datetime | None = None,
) -> Grade:
    """Post an automatic (or imported) score. Idempotent: the same post twice changes nothing.

    A staff override stays in force: the automatic score is kept underneath it and the audit row says so.
    """
    value = _quantize(points)
    _check_range(item, value)
    if source not in Grade.Source.values:
        raise GradeError(f"unknown source {source!r}")
    now = timezone.now()
    grade, created = _locked_grade(student, item, source, now)
    if not created and grade.auto_points == value and grade.submitted_at == submitted_at:
        return grade
    old = None if created else grade.points
    grade.auto_points, grade.source, grade.submitted_at, grade.computed_at = (
        value,
        source,
        submitted_at,
        now,
    )
    grade.points = grade.override_points if grade.override_points is not None else value
    grade.save()
    action = GradeEvent.Action.IMPORT if source == Grade.Source.IMPORT else GradeEvent.Action.RECORD
    note = (
        reason
        if grade.override_points is None
        else f"{reason} (override in force; automatic score {value})".strip()
    )
    _event(grade, action=action, old=old, actor=actor, reason=note, now=now)
    return grade


@transaction.atomic
def grade_override(
    *,
    student: AbstractBaseUser,
    item: GradeItem,
    points: Decimal | int | float | str,
    actor: AbstractBaseUser,
    reason: str,
) -> Grade:
    """Staff set a score by hand. A reason is required; the override survives later automatic posts."""
    if not reason or not reason.strip():
        raise GradeError("an override needs a reason")
    value = _quantize(points)
    _check_range(item, value)
    now = timezone.now()
    grade, created = _locked_grade(student, item, Grade.Source.MANUAL, now)
    if not created and grade.override_points == value and grade.override_reason == reason.strip():
        return grade
    old = None if created else grade.points
    grade.override_points, grade.override_reason = value, reason.strip()
    grade.points, grade.computed_at = value, now
    grade.save()
    _event(
        grade,
        action=GradeEvent.Action.OVERRIDE,
        old=old,
        actor=actor,
        reason=reason.strip(),
        now=now,
    )
    return grade


@transaction.atomic
def grade_override_clear(
    *, student: AbstractBaseUser, item: GradeItem, actor: AbstractBaseUser, reason: str
) -> Grade:
    """Remove an override; the automatic score (or 0 if none) becomes the score again."""
    if not reason or not reason.strip():
        raise GradeError("clearing an override needs a reason")
    grade = Grade.objects.select_for_update().get(student=student, item=item)
    if grade.override_points is None:
        return grade
    old = grade.points
    grade.override_points, grade.override_reason = None, ""
    grade.points = grade.auto_points if grade.auto_points is not None else Decimal("0")
    grade.computed_at = timezone.now()
    grade.save()
    _event(
        grade,
        action=GradeEvent.Action.CLEAR_OVERRIDE,
        old=old,
        actor=actor,
        reason=reason.strip(),
        now=grade.computed_at,
    )
    return grade
