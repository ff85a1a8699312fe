"""DRF authentication for students' personal API tokens (`Authorization: Token pdc_…`)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import authentication, exceptions

from accounts.models import ApiToken
from pdcsite.security import token_failed


class StudentTokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate(self, request):  # type: ignore[override]
        try:
            return super().authenticate(request)
        except exceptions.AuthenticationFailed:
            # Guessing tokens is throttled per client address, like passwords (django-axes).
            token_failed(request._request)
            raise

    def authenticate_credentials(self, key: str):  # type: ignore[override]
        if not key.startswith(ApiToken.PREFIX):
            raise exceptions.AuthenticationFailed(_("这不是学生的 API 令牌。"))
        token = ApiToken.objects.by_raw(key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("令牌无效或已被撤销。"))
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return (token.user, token)
