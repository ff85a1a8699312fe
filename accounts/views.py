from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_POST

from accounts import selectors, services


@login_required
def profile(request: HttpRequest) -> HttpResponse:
    return render(request, "accounts/profile.html", selectors.profile_context(user=request.user))


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    raw = services.api_token_create(user=request.user)
    context = selectors.profile_context(user=request.user) | {"new_token": raw}
    return render(request, "accounts/profile.html", context)
