"""Staff desk pages: one access check (course staff), reads in staffdesk.selectors."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from accounts.access import staff_check
from staffdesk import selectors


@login_required
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    staff_check(request.user)
    return render(request, "staffdesk/dashboard.html", selectors.dashboard())


@login_required
@require_GET
def person(request: HttpRequest, user_id: int) -> HttpResponse:
    staff_check(request.user)
    user = get_object_or_404(get_user_model().objects.select_related("profile"), pk=user_id)
    context = selectors.person(user)
    return render(request, "staffdesk/person.html", context)
