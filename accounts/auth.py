"""DRF authentication for students' personal API tokens (`Authorization: Token pdc_…`)."""

from __future__ import annotations

from django.utils import timezone
from rest_framework import authentication, exceptions

from accounts.models import ApiToken


class StudentTokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str):  # type: ignore[override]
        if not key.startswith(ApiToken.PREFIX):
            raise exceptions.AuthenticationFailed("not a student API token")
        token = ApiToken.objects.by_raw(key)
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("invalid or revoked token")
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return (token.user, token)
