"""Staff desk pages: one access check (course staff), reads in staffdesk.selectors."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.roles import is_staff_member, role_of
from staffdesk import selectors


def _staff(request: HttpRequest) -> None:
    if not is_staff_member(request.user):
        raise PermissionDenied("the staff desk is for TAs and instructors")


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    _staff(request)
    return render(request, "staffdesk/dashboard.html", selectors.dashboard())


@login_required
@require_GET
def person(request: HttpRequest, user_id: int) -> HttpResponse:
    _staff(request)
    user = get_object_or_404(get_user_model().objects.select_related("profile"), pk=user_id)
    context = selectors.person(user) | {"role": role_of(user)}
    return render(request, "staffdesk/person.html", context)
