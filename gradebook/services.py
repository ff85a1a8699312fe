"""The one way a score changes. Quizzes and the lab call `grade_record`; staff call the override pair."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from decimal import Decimal, InvalidOperation
from types import EllipsisType

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from gradebook import calc, selectors
from gradebook.csvio import import_parse
from gradebook.models import Excusal, Extension, Grade, GradeEvent, GradeItem, RegradeRequest
from gradebook.reasons import Reason, cleaned, parts_of
from gradebook.refs import ref_is_own, ref_well_formed
from pdcsite.moments import local_text
from pdcsite.params import query_id

_CENT = Decimal("0.01")


class GradeError(ValueError):
    """A score that cannot be recorded (out of range, missing reason, …). `field` names the form
    field the message belongs beside, when it is about one."""

    def __init__(self, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


def _quantize(points: Decimal | int | float | str) -> Decimal:
    try:
        value = Decimal(str(points))
    except Exception as exc:  # decimal.InvalidOperation and friends
        raise GradeError(_("分数“%(points)s”不是数字。") % {"points": points}) from exc
    if not value.is_finite():
        raise GradeError(_("分数“%(points)s”不是有限的数。") % {"points": points})
    try:
        return value.quantize(_CENT)
    except InvalidOperation:
        # Too many digits to hold to the cent (1e308): a number, out of every item's range, so
        # _check_range refuses it by that range rather than calling it "not a number".
        return value


def _check_range(item: GradeItem, value: Decimal) -> None:
    if value < 0 or value > item.max_points:
        raise GradeError(
            _("%(item)s 的分数 %(points)s 超出 0…%(max)s 的范围。")
            % {"item": str(item), "points": value, "max": item.max_points}
        )


def grade_item_ensure(
    *,
    key: str,
    title: str,
    kind: str,
    max_points: Decimal | int,
    title_en: str = "",
    category: str | None = None,
    due_at: datetime | None = None,
    weight: Decimal | int = 1,
    late: dict[str, object] | None = None,
    released: bool = True,
    scores_from: datetime | None | EllipsisType = ...,
) -> GradeItem:
    """Create the item or update its descriptive fields; keeps staff's release choice.
    ``released`` is the new item's first choice (an imported exam starts hidden).

    ``scores_from`` (GradeItem.scores_from) is the moment students see the item's scores from,
    written on every call that gives it, so the feeder that decides it (a quiz's review options)
    moves the hold with them; left out (``...``), the item keeps the one it has.

    ``late`` (late_policy, late_penalty_per_day, late_penalty_cap) is the item's initial policy: it
    is written when the item is created and never again, so a quiz or an assignment that re-ensures
    its item on every result cannot undo the policy staff set in the gradebook. Staff change it
    through ``grade_item_late_policy_set``.
    """
    if Decimal(str(max_points)) <= 0:
        raise GradeError(_("满分必须大于 0。"))
    fields = {
        "title": title,
        "title_en": title_en,
        "kind": kind,
        "category": category or kind,
        "max_points": Decimal(str(max_points)),
        "due_at": due_at,
        "weight": Decimal(str(weight)),
    }
    if scores_from is not ...:
        fields["scores_from"] = scores_from
    defaults = {**fields, **(late or {}), "released": released}
    item, created = GradeItem.objects.get_or_create(key=key, defaults=defaults)
    if not created and any(getattr(item, name) != value for name, value in fields.items()):
        for name, value in fields.items():
            setattr(item, name, value)
        item.save(update_fields=list(fields))
    return item


LATE_FIELDS = ("late_policy", "late_penalty_per_day", "late_penalty_cap")


@transaction.atomic
def grade_item_late_policy_set(
    *,
    item: GradeItem,
    late: dict[str, object],
    actor: AbstractBaseUser | None = None,
    followers: bool = True,
) -> GradeItem:
    """A deliberate staff change of an item's late policy (the gradebook is the one owner). The
    apps that choose a student's counting work by it choose again (`_lateness_changed`), unless
    ``followers`` is False: the caller is an app that recomputes its own grades right after."""
    unknown = set(late) - set(LATE_FIELDS)
    if unknown:
        raise GradeError(
            _("未知的迟交政策字段：%(names)s。") % {"names": ", ".join(sorted(unknown))}
        )
    item = GradeItem.objects.select_for_update().get(pk=item.pk)
    if all(getattr(item, name) == value for name, value in late.items()):
        return item
    for name, value in late.items():
        setattr(item, name, value)
    item.save(update_fields=list(late))
    if not followers:
        return item
    for student in get_user_model().objects.filter(grades__item=item).distinct():
        _lateness_changed(item=item, student=student, actor=actor)
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


def _save_logged(
    grade: Grade, *, action: str, old: Decimal | None, actor, reason: str, now: datetime
) -> None:
    """Save the grade and write the event that says who changed it from what, and why."""
    grade.save()
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
        reason_parts=parts_of(reason),
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
    ref: str = "",
    others: Sequence[calc.Score] = (),
) -> Grade:
    """Post an automatic (or imported) score. Idempotent: the same post twice changes nothing.

    ``ref`` names the work the score came from ("submission:12", "quiz-attempt:5"), so staff see
    which submission counted before they override anything. ``others``: the student's works the
    app chose that one from (its "best"), each with its time and ref; under a GRACE policy the
    standing counts one of them instead when the grace days left make it worth more.

    A staff override stays in force: the automatic score is kept underneath it and the audit row says so.
    """
    value = _quantize(points)
    _check_range(item, value)
    if source not in Grade.Source.values:
        raise GradeError(_("未知的成绩来源“%(source)s”。") % {"source": source})
    candidates = _candidates(others, ref) if item.late_policy == GradeItem.LatePolicy.GRACE else []
    now = timezone.now()
    grade, created = _locked_grade(student, item, source, now)
    same = grade.auto_points == value and grade.submitted_at == submitted_at
    # New candidates alone are audited too: under GRACE one of them may now count.
    if not created and same and grade.counted_ref == ref and grade.candidates == candidates:
        return grade
    old = None if created else grade.points
    grade.auto_points, grade.source, grade.submitted_at, grade.computed_at = (
        value,
        source,
        submitted_at,
        now,
    )
    grade.counted_ref, grade.candidates = ref, candidates
    grade.points = grade.override_points if grade.override_points is not None else value
    action = GradeEvent.Action.IMPORT if source == Grade.Source.IMPORT else GradeEvent.Action.RECORD
    note = reason if grade.override_points is None else _override_in_force(reason, value)
    _save_logged(grade, action=action, old=old, actor=actor, reason=note, now=now)
    return grade


def _candidates(others: Sequence[calc.Score], ref: str) -> list[list]:
    """Grade.candidates: the works besides the one posted (``ref``) that could ever count more.
    Kept under a GRACE policy only, the one that chooses among them: a change of the item's
    policy re-posts every student's grade (`_lateness_changed`)."""
    works = [calc.Score(_quantize(w.points), w.submitted_at, w.ref) for w in others]
    return [work.to_json() for work in calc.frontier(works) if work.ref != ref]


def _override_in_force(reason: str, value: Decimal) -> Reason:
    """The audit note of an automatic score that a staff override keeps from counting."""
    if reason.strip():
        return Reason("override_in_force", reason=cleaned(reason), value=value)
    return Reason("override_in_force_bare", value=value)


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
        raise GradeError(_("人工改分需要填写原因。"))
    value = _quantize(points)
    _check_range(item, value)
    now = timezone.now()
    grade, created = _locked_grade(student, item, Grade.Source.MANUAL, now)
    if not created and grade.override_points == value and grade.override_reason == reason.strip():
        return grade
    old = None if created else grade.points
    grade.override_points, grade.override_reason = value, reason.strip()
    grade.points, grade.computed_at = value, now
    action = GradeEvent.Action.OVERRIDE
    _save_logged(grade, action=action, old=old, actor=actor, reason=cleaned(reason), now=now)
    return grade


@transaction.atomic
def grade_override_clear(
    *, student: AbstractBaseUser, item: GradeItem, actor: AbstractBaseUser, reason: str
) -> Grade:
    """Remove an override; the automatic score (or 0 if none) becomes the score again."""
    if not reason or not reason.strip():
        raise GradeError(_("撤销人工改分需要填写原因。"))
    grade = Grade.objects.select_for_update().filter(student=student, item=item).first()
    if grade is None:
        raise GradeError(
            _("该学生在 %(item)s 上没有成绩，因此没有可撤销的人工改分。") % {"item": str(item)}
        )
    if grade.override_points is None:
        return grade
    old = grade.points
    grade.override_points, grade.override_reason = None, ""
    grade.points = grade.auto_points if grade.auto_points is not None else Decimal("0")
    grade.computed_at = now = timezone.now()
    action = GradeEvent.Action.CLEAR_OVERRIDE
    _save_logged(grade, action=action, old=old, actor=actor, reason=cleaned(reason), now=now)
    return grade


# --- Apps whose score depends on the lateness rule ------------------------------------------------
# A quiz graded "best" and a lab post the work worth most after the late penalty, and the student's
# due date and the item's policy decide that penalty. The gradebook imports no app (they depend on
# it), so such an app registers, in its AppConfig.ready(), a resync for its items' key prefix
# ("quiz:", "lab:"; its items' keys are the prefix and the object's primary key), called in the
# same transaction when a student's due date on one of those items changes, or the item's late
# policy does (for every student graded on it), with the primary key read from the item's key.
DueFollower = Callable[..., object]  # resync(*, pk: int, student, actor)
_DUE_FOLLOWERS: dict[str, DueFollower] = {}


def due_follower_register(key_prefix: str, resync: DueFollower) -> None:
    _DUE_FOLLOWERS[key_prefix] = resync


def _lateness_changed(
    *, item: GradeItem, student: AbstractBaseUser, actor: AbstractBaseUser | None
) -> None:
    for prefix, resync in _DUE_FOLLOWERS.items():
        # query_id, not str.isdigit(): an admin-typed key "lab:²" is a digit to isdigit() only.
        pk = query_id(item.key.removeprefix(prefix))
        if item.key.startswith(prefix) and pk is not None:
            resync(pk=pk, student=student, actor=actor)


# --- Release, deadlines, excusals: staff decisions, each one audited ------------------------------


def _note(
    *, item: GradeItem, student, actor, action: str, reason: str, now: datetime
) -> GradeEvent:
    """An audit row for a decision that is not itself a score change (release, extension, …)."""
    grade = selectors.current_grade(student, item) if student else None
    points = grade.points if grade else None
    return GradeEvent.objects.create(
        grade=grade,
        item=item,
        student=student,
        actor=actor,
        action=action,
        source=grade.source if grade else "",
        old_points=points,
        new_points=points,
        reason=reason,
        reason_parts=parts_of(reason),
        at=now,
    )


def grade_audit_note(
    *, item: GradeItem, student: AbstractBaseUser, actor: AbstractBaseUser, action: str, reason: str
) -> GradeEvent:
    """An audit row for a decision another app makes about a score's source (e.g. the lab's
    override of one submission's score), written whether or not the item's score moves."""
    return _note(
        item=item, student=student, actor=actor, action=action, reason=reason, now=timezone.now()
    )


@transaction.atomic
def item_release_set(*, item: GradeItem, released: bool, actor: AbstractBaseUser) -> GradeItem:
    """Show or hide an item's scores to students. Idempotent; each real change is audited."""
    item = GradeItem.objects.select_for_update().get(pk=item.pk)
    if item.released == released:
        return item
    item.released = released
    item.save(update_fields=["released"])
    action = GradeEvent.Action.RELEASE if released else GradeEvent.Action.HIDE
    _note(item=item, student=None, actor=actor, action=action, reason="", now=timezone.now())
    return item


@transaction.atomic
def extension_grant(
    *,
    student: AbstractBaseUser,
    item: GradeItem,
    actor: AbstractBaseUser,
    due_at: datetime | None = None,
    extra_days: int | None = None,
    reason: str = "",
) -> Extension:
    """Give one student a later deadline: a new due date, or extra days past the item's due date.

    Replaces any earlier extension of the same item; late penalties are recomputed from it when shown.
    """
    if (due_at is None) == (extra_days is None):
        raise GradeError(_("请填写新截止时间或延长天数（二选一）。"))
    if extra_days is not None and not 1 <= extra_days <= 365:
        raise GradeError(_("延长天数必须在 1–365 天之间。"))
    if item.due_at is None:
        # Nobody is late on an undated item: a date of the student's own could only make them so.
        raise GradeError(_("%(item)s 没有截止时间，无需延期。") % {"item": str(item)}, field="item")
    if due_at is not None and timezone.is_naive(due_at):
        raise GradeError(_("新截止时间需要带时区。"))
    if due_at is not None and item.due_at is not None and due_at <= item.due_at:
        # An extension only ever extends: an earlier date would make on-time work late.
        raise GradeError(
            _("新截止时间必须晚于该项原截止时间 %(due)s。") % {"due": local_text(item.due_at)},
            field="due_at",
        )
    now = timezone.now()
    extension, _created = Extension.objects.update_or_create(
        student=student,
        item=item,
        defaults={
            "due_at": due_at,
            "extra_days": extra_days,
            "reason": reason.strip(),
            "granted_by": actor,
            "granted_at": now,
        },
    )
    due = extension.effective_due()
    note = Reason("extension_due", due=local_text(due)) if due else Reason("extension")
    if reason.strip():
        note = Reason("with_note", reason=note, note=reason.strip())
    _note(
        item=item,
        student=student,
        actor=actor,
        action=GradeEvent.Action.EXTENSION,
        reason=note,
        now=now,
    )
    _lateness_changed(item=item, student=student, actor=actor)
    return extension


@transaction.atomic
def extension_revoke(
    *, student: AbstractBaseUser, item: GradeItem, actor: AbstractBaseUser, reason: str = ""
) -> bool:
    deleted, _per_model = Extension.objects.filter(student=student, item=item).delete()
    if deleted:
        _note(
            item=item,
            student=student,
            actor=actor,
            action=GradeEvent.Action.EXTENSION_REVOKE,
            reason=reason.strip(),
            now=timezone.now(),
        )
        _lateness_changed(item=item, student=student, actor=actor)
    return bool(deleted)


@transaction.atomic
def excusal_set(
    *,
    student: AbstractBaseUser,
    item: GradeItem,
    actor: AbstractBaseUser,
    excused: bool,
    reason: str,
) -> bool:
    """Excuse a student from an item (it leaves their totals) or take that back. Reason required."""
    if not reason or not reason.strip():
        raise GradeError(_("免做（或撤销免做）需要填写原因。"))
    now = timezone.now()
    if excused:
        _obj, changed = Excusal.objects.get_or_create(
            student=student,
            item=item,
            defaults={"reason": reason.strip(), "granted_by": actor, "granted_at": now},
        )
    else:
        changed = bool(Excusal.objects.filter(student=student, item=item).delete()[0])
    if changed:
        action = GradeEvent.Action.EXCUSE if excused else GradeEvent.Action.UNEXCUSE
        _note(item=item, student=student, actor=actor, action=action, reason=reason, now=now)
    return changed


# --- Curves: one adjustment of every graded score of an item, audited --------------------------

CURVE_MAX_FACTOR = Decimal(10)  # a factor above 10 is a typo (11 for 1.1), not a curve
_CURVE_PLACES = {calc.CURVE_ADD: Decimal("0.01"), calc.CURVE_SCALE: Decimal("0.001")}


def curve_parse(*, item: GradeItem, kind: str, value: Decimal | int | str) -> calc.Curve:
    """The curve staff typed, checked: points to add within ±max points (to the cent), or a factor
    above 0 and at most CURVE_MAX_FACTOR (to 0.001). GradeError names the field at fault."""
    if kind not in _CURVE_PLACES:
        raise GradeError(_("请选择曲线方式：加分或乘以系数。"), field="kind")
    try:
        number = Decimal(str(value).strip())
    except InvalidOperation:
        number = Decimal("NaN")
    if not number.is_finite():
        raise GradeError(_("曲线数值“%(value)s”不是数字。") % {"value": value}, field="value")
    if kind == calc.CURVE_SCALE and not 0 < number <= CURVE_MAX_FACTOR:
        raise GradeError(
            _("系数必须大于 0，且不超过 %(max)s。") % {"max": CURVE_MAX_FACTOR}, field="value"
        )
    # copy_abs, not abs(): abs() rounds in the decimal context and overflows on 1e999999999
    if kind == calc.CURVE_ADD and number.copy_abs() > item.max_points:
        raise GradeError(
            _("加分必须在 -%(max)s…%(max)s 之间。") % {"max": item.max_points}, field="value"
        )
    try:  # a number within the bounds but with too many digits (1e-999999999) cannot be rounded
        rounded = number.quantize(_CURVE_PLACES[kind])
    except ArithmeticError:
        rounded = None
    if rounded is None or number != rounded:
        places = _("两位") if kind == calc.CURVE_ADD else _("三位")
        raise GradeError(_("小数最多%(places)s。") % {"places": places}, field="value")
    return calc.Curve(kind, rounded)


def _curve_reason(reason: str) -> str:
    if not reason or not reason.strip():
        raise GradeError(_("设置或撤销曲线需要填写原因。"), field="reason")
    return reason.strip()


class CurveConflict(GradeError):
    """The item's curve is no longer the one the staff page was loaded with: another staff member
    saved or removed one since. ``current`` is the curve in force now (None: none)."""

    def __init__(self, *, loaded: str, current: calc.Curve | None, version: str) -> None:
        none = pgettext("an item's curve", "无曲线")
        loaded = loaded.partition("#")[0]  # the curve the page showed (selectors.curve_version)
        super().__init__(
            _(
                "曲线已被他人修改（你打开本页时：%(loaded)s；现在：%(current)s）。"
                "你填写的内容保留在下方，核对后可再次提交。"
            )
            % {"loaded": loaded or none, "current": current or none}
        )
        self.current, self.version = current, version


def _curve_unchanged_since(item: GradeItem, loaded: str | None) -> None:
    """Refuse a write over a curve the writer has not seen: two staff on the item's page at once
    would otherwise overwrite each other silently. ``item`` is locked (select_for_update), so no
    other curve write can come between this check and the write. ``loaded``: what the page was
    loaded over (selectors.curve_version); None for callers that are not a page."""
    if loaded is not None and loaded != (version := selectors.curve_version(item)):
        raise CurveConflict(loaded=loaded, current=item.curve, version=version)


@transaction.atomic
def grade_item_curve_set(
    *,
    item: GradeItem,
    kind: str,
    value: Decimal | int | str,
    actor: AbstractBaseUser,
    reason: str,
    loaded: str | None = None,
) -> GradeItem:
    """Set or change the item's curve; every student's score is curved from the next read on
    (calc.py). Audited with the old and new curve and the reason; the same curve again is no
    change and writes nothing. CurveConflict when the curve is no longer ``loaded``, the one the
    writer's page showed (`_curve_unchanged_since`)."""
    note = _curve_reason(reason)
    curve = curve_parse(item=item, kind=kind, value=value)
    item = GradeItem.objects.select_for_update().get(pk=item.pk)
    _curve_unchanged_since(item, loaded)
    old = item.curve
    if old == curve and item.curve_reason == note:
        return item
    item.curve_kind, item.curve_value, item.curve_reason = curve.kind, curve.value, note
    item.save(update_fields=["curve_kind", "curve_value", "curve_reason"])
    if old is None:
        action, said = GradeEvent.Action.CURVE_SET, Reason("curve_set", curve=curve)
    elif old == curve:  # only the reason is new: a change of the item's curve record, said as such
        action, said = GradeEvent.Action.CURVE_CHANGE, Reason("curve_reason", curve=curve)
    else:
        action, said = GradeEvent.Action.CURVE_CHANGE, Reason("curve_change", old=old, new=curve)
    reason_ = Reason("with_note", reason=said, note=note)
    _note(item=item, student=None, actor=actor, action=action, reason=reason_, now=timezone.now())
    return item


@transaction.atomic
def grade_item_curve_remove(
    *, item: GradeItem, actor: AbstractBaseUser, reason: str, loaded: str | None = None
) -> bool:
    """Take the curve off: every score is the uncurved one again (nothing stored was curved).
    False, and nothing written, when the item had no curve. CurveConflict as in
    grade_item_curve_set."""
    note = _curve_reason(reason)
    item = GradeItem.objects.select_for_update().get(pk=item.pk)
    _curve_unchanged_since(item, loaded)
    old = item.curve
    if old is None:
        return False
    item.curve_kind, item.curve_value, item.curve_reason = "", None, ""
    item.save(update_fields=["curve_kind", "curve_value", "curve_reason"])
    reason_ = Reason("with_note", reason=Reason("curve_remove", old=old), note=note)
    action = GradeEvent.Action.CURVE_REMOVE
    _note(item=item, student=None, actor=actor, action=action, reason=reason_, now=timezone.now())
    return True


# --- Regrade requests ----------------------------------------------------------------------------

_MESSAGE_MAX = 4000  # characters; a regrade request is a paragraph, not an essay
# Characters, after stripping: enough for what to look at and why ("第二题错了", "Q2: B"), not an
# "x" or a "?" that only costs a TA a round trip to ask what is meant. Chinese says much in few
# characters, so the bar is low. Here, not only on the form: every path that creates a request
# goes through regrade_request_create (the form's field shows the same words at the box).
REGRADE_MESSAGE_MIN = 5
REGRADE_MESSAGE_SHORT = gettext_lazy(
    "请写明需要复核什么、为什么：至少 %(limit_value)d 个字符（现在 %(show_value)d 个）。"
)


@transaction.atomic
def regrade_request_create(
    *, student: AbstractBaseUser, item: GradeItem, message: str, ref: str = ""
) -> RegradeRequest:
    message, ref = (message or "").strip(), (ref or "").strip()
    if not message:
        raise GradeError(_("请填写需要复核的内容。"))
    if len(message) < REGRADE_MESSAGE_MIN:
        sizes = {"limit_value": REGRADE_MESSAGE_MIN, "show_value": len(message)}
        raise GradeError(REGRADE_MESSAGE_SHORT % sizes)
    if len(message) > _MESSAGE_MAX:
        raise GradeError(_("说明超过了 %(max)s 个字符。") % {"max": _MESSAGE_MAX})
    if not ref_well_formed(ref):
        raise GradeError(_("引用“%(ref)s”不是 kind:id 的形式。") % {"ref": ref})
    if not ref_is_own(ref, student=student, item=item):
        raise GradeError(_("“%(ref)s”不是你在此项下的提交或作答。") % {"ref": ref})
    # Serialise one student's requests so that the daily limit cannot be raced.
    get_user_model().objects.select_for_update().filter(pk=student.pk).first()
    if selectors.open_regrade(student, item, ref) is not None:
        raise GradeError(_("你已有一个针对此项的待处理复核申请。"))
    now = timezone.now()
    limit = settings.PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY
    recent = RegradeRequest.objects.filter(
        student=student, item=item, created_at__gt=now - timedelta(days=1)
    ).count()
    if recent >= limit:
        raise GradeError(
            ngettext(
                "每个成绩项 24 小时内最多提交 %(limit)s 次复核申请，请稍后再试。",
                "每个成绩项 24 小时内最多提交 %(limit)s 次复核申请，请稍后再试。",
                limit,
            )
            % {"limit": limit}
        )
    return RegradeRequest.objects.create(
        student=student, item=item, ref=ref, message=message, created_at=now
    )


@transaction.atomic
def regrade_request_resolve(
    *,
    request_id: int,
    actor: AbstractBaseUser,
    accept: bool,
    response: str,
    points: Decimal | int | str | None = None,
) -> RegradeRequest:
    """Answer a request: accept with a new score (an audited override) or decline with a reason."""
    response = (response or "").strip()
    if not response:
        raise GradeError(_("需要填写给学生的答复。"))
    request = RegradeRequest.objects.select_for_update().select_related("item", "student")
    request = request.get(pk=request_id)
    if request.status != RegradeRequest.Status.OPEN:
        raise GradeError(
            _("复核申请 #%(pk)s 已处理（%(status)s）。")
            % {"pk": request.pk, "status": request.get_status_display()}
        )
    current = selectors.current_grade(request.student, request.item)
    request.old_points = current.points if current else None
    now = timezone.now()
    if accept:
        if points is None or str(points).strip() == "":
            raise GradeError(_("改分需要填写新分数。"))
        grade = grade_override(
            student=request.student,
            item=request.item,
            points=points,
            actor=actor,
            reason=Reason("regrade_response", request=request.pk, response=response),
        )
        request.status, request.new_points = RegradeRequest.Status.ACCEPTED, grade.points
    else:
        request.status, request.new_points = RegradeRequest.Status.DECLINED, request.old_points
        _note(
            item=request.item,
            student=request.student,
            actor=actor,
            action=GradeEvent.Action.REGRADE_DECLINE,
            reason=Reason("regrade_response", request=request.pk, response=response),
            now=now,
        )
    request.response, request.resolved_by, request.resolved_at = response, actor, now
    request.save()
    return request


# --- CSV import of externally graded items --------------------------------------------------------

EXTERNAL_KINDS = (GradeItem.Kind.EXAM, GradeItem.Kind.OTHER)


@dataclass(frozen=True)
class ImportResult:
    changed: int
    unchanged: int


@transaction.atomic
def grades_import(*, item: GradeItem, text: str, actor: AbstractBaseUser) -> ImportResult:
    """Import one item's scores from CSV: every row is checked first; one bad row imports nothing.

    Only items graded outside the platform (exam, other) take imports, so a CSV never fights the
    quiz or lab autograder; staff overrides stay in force, as with any automatic post.
    """
    if item.kind not in EXTERNAL_KINDS:
        raise GradeError(
            _("%(item)s 在平台上评分；只能导入考试或其他类的成绩项。") % {"item": str(item)}
        )
    rows = import_parse(text, item=item)
    changed = 0
    for row in rows:
        before = Grade.objects.filter(student=row.student, item=item).values_list(
            "auto_points", flat=True
        )
        if list(before) == [row.points]:
            continue
        grade_record(
            student=row.student,
            item=item,
            points=row.points,
            source=Grade.Source.IMPORT,
            actor=actor,
            reason=Reason("csv_import", line=row.line),
        )
        changed += 1
    return ImportResult(changed=changed, unchanged=len(rows) - changed)
