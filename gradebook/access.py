"""The gradebook's access checks, one per resource. Views call these and nothing else decides access.

Built on ``accounts.access`` (the project's one access module):

- staff pages: `accounts.access.staff_required` (TA, instructor, superuser) — everyone else 403;
- release and course settings: `can_release` (the instructor's `gradebook.release_grades`);
- a regrade request: `regrade_request_get` (a student reaches only their own, else 404), and
  `can_answer` (staff, while it is open);
- the student pages that staff see on a page of their own: `staff_page`;
- every staff write: `staff_write_check` with the permission of that write (STAFF_WRITE_PERMISSIONS);
- grades: `Grade.objects.visible_to(user)` (own, released only) in models.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from accounts.access import is_staff_member, staff_permission
from gradebook.models import RegradeRequest

# The permission each staff write needs (accounts.roles gives them to the roles).
STAFF_WRITE_PERMISSIONS: dict[str, str] = {
    "override": "gradebook.override_grade",
    "override_clear": "gradebook.override_grade",
    "extension": "gradebook.add_extension",
    "extension_revoke": "gradebook.add_extension",
    "excuse": "gradebook.add_excusal",
    "import": "gradebook.change_grade",
    "import_new_item": "gradebook.add_gradeitem",
    "curve": "gradebook.change_grade",  # an item's curve changes every student's score
    "regrade_resolve": "gradebook.resolve_regraderequest",
}


def staff_write_check(user: AbstractBaseUser | AnonymousUser, write: str) -> None:
    """PermissionDenied unless the user is course staff holding the permission of this write."""
    if not staff_permission(user, STAFF_WRITE_PERMISSIONS[write]):
        raise PermissionDenied(f"{write} needs {STAFF_WRITE_PERMISSIONS[write]}")


def can_release(user: AbstractBaseUser | AnonymousUser) -> bool:
    return staff_permission(user, "gradebook.release_grades")


def can_curve(user: AbstractBaseUser | AnonymousUser) -> bool:
    """May set, change or remove an item's curve: staff who may change grades (the form is
    offered to them; the write itself checks staff_write_check(user, "curve"))."""
    return staff_permission(user, STAFF_WRITE_PERMISSIONS["curve"])


def can_add_items(user: AbstractBaseUser | AnonymousUser) -> bool:
    """May create a grade item (an exam's) on the import page: instructors."""
    return staff_permission(user, STAFF_WRITE_PERMISSIONS["import_new_item"])


def staff_page(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Staff have their own page for what a student's page shows (the grid, the regrade queue)."""
    return is_staff_member(user)


def can_answer(user: AbstractBaseUser | AnonymousUser, regrade: RegradeRequest) -> bool:
    """The answer form is offered to staff while the request is open (writing it needs
    staff_write_check(user, "regrade_resolve"))."""
    return is_staff_member(user) and regrade.status == RegradeRequest.Status.OPEN


def regrade_request_get(user: AbstractBaseUser, pk: int) -> RegradeRequest:
    """404 rather than 403 for someone else's request: its existence is not the student's business."""
    queryset = RegradeRequest.objects.visible_to(user).select_related("item", "student")
    return get_object_or_404(queryset, pk=pk)
