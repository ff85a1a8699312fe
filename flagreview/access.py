"""Who may answer and who may judge a flag; built on ``accounts.access`` (the one access module).

Seeing a case is the lab's check (``Submission.objects.visible_to``, in ``selectors.case_get``):
staff see every case, a student only their own. Answering is for the student who submitted, once
(``services`` refuses a second); judging is for course staff holding the lab permission of the
decision (``gradinglab.access``: a restore replaces one submission's score, keep and hide are the
flag permission).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from accounts.access import is_staff_member, staff_required
from flagreview.models import FlagVerdict
from gradinglab.access import lab_may
from gradinglab.models import Submission

__all__ = ["may_judge", "may_respond", "reads_flag_record", "staff_required"]

VERDICT_ACTIONS: dict[str, str] = {
    FlagVerdict.Decision.RESTORE: "override_submission",
    FlagVerdict.Decision.KEEP: "flag",
    FlagVerdict.Decision.HIDE: "flag",
}


def reads_flag_record(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Course staff read the raw flag strings, every response and the verdict form; a student
    reads the evidence in sentences."""
    return is_staff_member(user)


def may_respond(user: AbstractBaseUser | AnonymousUser, sub: Submission) -> bool:
    """Only the student who submitted answers the evidence (staff read it, never answer it)."""
    return Submission.objects.owned_by(user).filter(pk=sub.pk).exists()


def may_judge(user: AbstractBaseUser | AnonymousUser, decision: str) -> bool:
    return is_staff_member(user) and lab_may(user, VERDICT_ACTIONS[decision])
