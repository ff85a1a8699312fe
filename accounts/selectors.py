from django.contrib.auth.models import AbstractBaseUser

from accounts.models import ApiToken, Profile
from accounts.roles import role_of


def profile_context(*, user: AbstractBaseUser) -> dict:
    return {
        "profile": Profile.objects.filter(user=user).first(),
        "role": role_of(user),
        "active_tokens": ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by(
            "-created_at"
        ),
    }
