"""Who may take the lab's staff actions; built on ``accounts.access`` (the one access module).

Three words, three permissions: *re-run* grades a submission again in a sandbox, *rescore*
recomputes stored results under the current rule, and overriding replaces one score (audited).
``accounts.roles`` gives these permissions to the roles; the admin and the staff pages ask here.
Which rows a user sees is ``Submission.objects.visible_to(user)`` (gradinglab.models).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from accounts.access import staff_permission
from gradebook.access import STAFF_WRITE_PERMISSIONS

LAB_PERMISSIONS: dict[str, str] = {
    "rerun": "gradinglab.rerun_submission",
    "rescore": "gradinglab.rescore_assignment",
    "flag": "gradinglab.flag_submission",
    "override_submission": "gradinglab.override_submission_score",
    "override_item": STAFF_WRITE_PERMISSIONS["override"],  # the gradebook item's score
}


def lab_may(user: AbstractBaseUser | AnonymousUser, action: str) -> bool:
    """Whether the user holds the permission of this lab action (a key of LAB_PERMISSIONS)."""
    return user.has_perm(LAB_PERMISSIONS[action])


def may_request_regrade(user: AbstractBaseUser | AnonymousUser, submission) -> bool:
    """A regrade is asked for by the student whose submission it is (the gradebook's form refuses
    anyone else's); staff looking at a student's work review it in the admin instead."""
    return user.is_authenticated and submission.student_id == user.pk


def may_review_in_admin(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Course staff who may open a submission in the admin (re-run, comment, override there)."""
    return staff_permission(user, "gradinglab.view_submission")
