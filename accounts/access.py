"""The one access module: who is course staff, and which rows a user may reach.

Every view, API view, selector and admin action asks here (or an app's own ``access.py``, which
builds on this one) instead of testing a role or filtering by owner itself;
``tests/test_access_calls.py`` holds them to it.

- ``is_staff_member(user)``: TAs, instructors and superusers, the people who see everyone's work;
- ``staff_required`` (a view decorator) and ``staff_check`` (inside a view): everyone else 403;
- ``AccessQuerySet.visible_to(user)``: signed out nothing, staff everything, anyone else what the
  resource's ``for_member`` allows; ``OwnedQuerySet`` adds ``owned_by(user)`` for rows that belong
  to a student (a submission, an attempt, a grade) and makes it the member's rule by default.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, ClassVar, Self

from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import models
from django.http import HttpRequest, HttpResponse

from accounts.roles import INSTRUCTOR, TA, role_of

User = AbstractBaseUser | AnonymousUser


def signed_in(user: User | None) -> bool:
    return user is not None and user.is_authenticated


def is_staff_member(user: User | None) -> bool:
    """TAs, instructors and superusers: the people who may see everyone's work."""
    if not signed_in(user):
        return False
    if user.is_superuser:
        return True
    return role_of(user) in (TA, INSTRUCTOR)


def staff_check(user: User | None) -> None:
    """PermissionDenied (403) unless the user is course staff."""
    if not is_staff_member(user):
        raise PermissionDenied("course staff only")


def staff_permission(user: User | None, permission: str) -> bool:
    """Course staff holding `permission` (accounts.roles gives the permissions to the roles)."""
    return is_staff_member(user) and user.has_perm(permission)


def can_view_roster(user: User | None) -> bool:
    """TAs may look at the roster (``accounts.view_profile``)."""
    return signed_in(user) and user.has_perm("accounts.view_profile")


def can_import_roster(user: User | None) -> bool:
    """Instructors import it (``accounts.change_profile``)."""
    return signed_in(user) and user.has_perm("accounts.change_profile")


View = Callable[..., HttpResponse]


def access_required(check: Callable[[Any], bool], refusal: str) -> Callable[[View], View]:
    """A view decorator: signed in (else the login page) and `check(user)` (else 403)."""

    def decorate(view: View) -> View:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not check(request.user):
                raise PermissionDenied(refusal)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


staff_required = access_required(is_staff_member, "course staff only")


class AccessQuerySet(models.QuerySet):
    """``visible_to(user)``: nothing signed out, every row for staff, ``for_member`` otherwise.

    ``member_sees_all``: every signed-in user reads every row (course material); such a resource
    can be read without the ORM (see ``lectures.selectors.lecture_index``) after ``sees_all``.
    """

    member_sees_all: ClassVar[bool] = False

    def visible_to(self, user: User | None) -> Self:
        if not signed_in(user):
            return self.none()
        if self.member_sees_all or is_staff_member(user):
            return self.all()
        return self.for_member(user)

    def sees_all(self, user: User | None) -> bool:
        """True when ``visible_to(user)`` is every row, unfiltered."""
        return signed_in(user) and (self.member_sees_all or is_staff_member(user))

    def for_member(self, user: AbstractBaseUser) -> Self:
        """The rows a signed-in non-staff user sees; by default none (staff-only records)."""
        return self.none()


class OwnedQuerySet(AccessQuerySet):
    """Rows that belong to one student (``owner_field``): a member sees their own."""

    owner_field: ClassVar[str] = "student"

    def owned_by(self, user: User | None) -> Self:
        """The user's own rows, whatever their role (staff taking a quiz see only their attempt)."""
        if not signed_in(user):
            return self.none()
        return self.filter(**{self.owner_field: user})

    def for_member(self, user: AbstractBaseUser) -> Self:
        return self.owned_by(user)
