"""Writes of flag review: the student's one response and the TA's verdict.

A verdict's effect on the score goes through the existing paths, each audited in the gradebook:
restore = the lab's per-submission override (`gradinglab.services.results.submission_score_override`:
a `sub_override` audit row, then the item re-derived from the best submission); keep and hide =
an audit note (`gradebook.services.grade_audit_note`) on the assignment's item. The leaderboard
reads the verdict itself (`selectors.leaderboard_eligible`).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from flagreview import selectors
from flagreview.models import REASON_MAX_CHARS, RESPONSE_MAX_CHARS, FlagResponse, FlagVerdict
from gradebook.models import GradeEvent
from gradebook.reasons import Reason
from gradebook.services import GradeError, grade_audit_note
from gradinglab.models import Submission


class FlagError(ValueError):
    """A refused response or verdict; the message says why, in the user's language."""


def _locked_case(submission: Submission) -> selectors.Case:
    locked = (
        Submission.objects.select_for_update(of=("self",))
        .select_related("assignment__problem", "student")
        .get(pk=submission.pk)
    )
    case = selectors.case_of(locked)
    if case is None:
        raise FlagError(_("这次提交没有被标记或拒绝，无需回应。"))
    return case


@transaction.atomic
def flag_response_create(
    *, submission: Submission, student: AbstractBaseUser, text: str, now: datetime | None = None
) -> FlagResponse:
    """The student's one answer to the evidence of this round."""
    text = (text or "").replace("\r\n", "\n").strip()
    if not text:
        raise FlagError(_("回应不能为空。"))
    if len(text) > RESPONSE_MAX_CHARS:
        raise FlagError(_("回应最多 %(n)d 个字。") % {"n": RESPONSE_MAX_CHARS})
    case = _locked_case(submission)
    sub = case.submission
    if sub.student_id != student.pk:
        raise FlagError(_("只有提交的学生本人可以回应。"))
    if case.verdict is not None:
        raise FlagError(_("助教已经给出结论，不能再回应。"))
    if case.response is not None:
        raise FlagError(_("你已经回应过这次结果；每次结果只能回应一次。"))
    try:
        with transaction.atomic():
            return FlagResponse.objects.create(
                submission=sub,
                round=sub.round,
                student=student,
                text=text,
                created_at=now or timezone.now(),
            )
    except IntegrityError as exc:  # a second tab posted at the same moment
        raise FlagError(_("你已经回应过这次结果；每次结果只能回应一次。")) from exc


_NOTE_ACTIONS = {
    FlagVerdict.Decision.KEEP: GradeEvent.Action.FLAG_KEEP,
    FlagVerdict.Decision.HIDE: GradeEvent.Action.FLAG_HIDE,
}


def _apply(sub: Submission, decision: str, points: Decimal | None, actor, reason: str) -> None:
    from gradinglab.services.results import assignment_grade_item, submission_score_override

    note = Reason("flag_verdict", submission=sub.pk, round=sub.round, decision=decision)
    if reason:
        note = Reason("with_note", reason=note, note=reason)
    if decision == FlagVerdict.Decision.RESTORE:
        if points is None:
            raise FlagError(_("恢复分数需要填写分数。"))
        try:
            submission_score_override(submission=sub, points=points, actor=actor, reason=note)
        except GradeError as exc:
            raise FlagError(str(exc)) from exc
        return
    item = assignment_grade_item(sub.assignment)
    grade_audit_note(
        item=item, student=sub.student, actor=actor, action=_NOTE_ACTIONS[decision], reason=note
    )


@transaction.atomic
def flag_verdict_record(
    *,
    submission: Submission,
    actor: AbstractBaseUser,
    decision: str,
    reason: str,
    points: Decimal | None = None,
    now: datetime | None = None,
) -> FlagVerdict:
    """The TA's decision on this round's result, audited in the gradebook (see module docstring)."""
    reason = (reason or "").strip()
    if decision not in FlagVerdict.Decision.values:
        raise FlagError(pgettext("flag verdict", "请选择一个结论。"))
    if not reason:
        raise FlagError(_("结论需要填写理由。"))
    if len(reason) > REASON_MAX_CHARS:
        raise FlagError(_("理由最多 %(n)d 个字。") % {"n": REASON_MAX_CHARS})
    case = _locked_case(submission)
    if case.verdict is not None:
        raise FlagError(_("这次结果已经有结论了。"))
    sub = case.submission
    restore = decision == FlagVerdict.Decision.RESTORE
    _apply(sub, decision, points if restore else None, actor, reason)
    return FlagVerdict.objects.create(
        submission=sub,
        round=sub.round,
        decision=decision,
        points=points if restore else None,
        reason=reason,
        actor=actor,
        at=now or timezone.now(),
    )
