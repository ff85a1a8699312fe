import logging

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse_lazy
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import selectors, services
from accounts.forms import ResetOrSetPasswordForm
from pdcsite.security import client_ip

log = logging.getLogger("accounts")

# The raw token waits in the session for exactly one profile page: POST-redirect-GET, so that a
# reload never posts again (and never silently replaces the token the student just copied).
_NEW_TOKEN_KEY = "accounts_new_token"


@never_cache
@login_required
def profile(request: HttpRequest) -> HttpResponse:
    context = selectors.profile_context(user=request.user)
    context["new_token"] = request.session.pop(_NEW_TOKEN_KEY, None)
    return render(request, "accounts/profile.html", context)


@login_required
@require_POST
def token_create(request: HttpRequest) -> HttpResponse:
    request.session[_NEW_TOKEN_KEY] = services.api_token_create(user=request.user)
    return redirect("accounts:profile")


@login_required
@require_POST
def token_revoke(request: HttpRequest, pk: int) -> HttpResponse:
    if not services.api_token_revoke(user=request.user, token_id=pk):
        raise Http404("no such live token of yours")
    messages.success(request, _("令牌已吊销。"))
    return redirect("accounts:profile")


def lockout(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """django-axes' answer to a locked-out login (site, admin): a clear, translated 429 page."""
    minutes = int(settings.AXES_COOLOFF_TIME.total_seconds() // 60)
    return render(request, "accounts/lockout.html", {"minutes": minutes}, status=429)


class PasswordResetView(auth_views.PasswordResetView):
    """Django's reset page, with its e-mails limited per address and per client address: 15 posts
    in a second sent 15 mails. Past a limit nothing is sent and the page answers as it does for
    an address with no account, so it still tells nobody which addresses have one."""

    form_class = ResetOrSetPasswordForm
    success_url = reverse_lazy("accounts:password_reset_done")

    def form_valid(self, form: ResetOrSetPasswordForm) -> HttpResponse:
        email = form.cleaned_data["email"]
        if services.password_reset_throttled(email=email, client=client_ip(self.request)):
            log.warning("password reset throttled (client %s)", client_ip(self.request))
            return redirect(self.get_success_url())
        return super().form_valid(form)


@login_required
@require_POST
def pseudonym_set(request: HttpRequest) -> HttpResponse:
    wanted = request.POST.get("pseudonym", "")
    try:
        profile = services.profile_pseudonym_set(user=request.user, pseudonym=wanted)
    except services.ProfileError as exc:
        context = selectors.profile_context(user=request.user)
        context |= {"pseudonym_error": str(exc), "pseudonym_value": wanted}
        status = 429 if isinstance(exc, services.ProfileThrottled) else 400
        return render(request, "accounts/profile.html", context, status=status)
    if profile.pseudonym:
        messages.success(request, _("排行榜昵称已保存。"))
    else:  # an empty field, or only spaces: the student leaves the leaderboard
        messages.success(request, _("排行榜昵称已清除，你不会出现在排行榜上。"))
    return redirect("accounts:profile")
