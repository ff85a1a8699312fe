from __future__ import annotations

from collections.abc import Iterator

from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import AbstractBaseUser


class ResetOrSetPasswordForm(PasswordResetForm):
    """Django's reset form, also for roster-imported users who never set a password.

    Django skips users with an unusable password (they may log in elsewhere, e.g. LDAP); here every
    account is local and an unusable password only means "not set yet", so a student whose
    invitation was lost can ask for the link again.
    """

    def get_users(self, email: str) -> Iterator[AbstractBaseUser]:
        users = get_user_model()._default_manager.filter(email__iexact=email, is_active=True)
        return (user for user in users if user.email.casefold() == email.casefold())
