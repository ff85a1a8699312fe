"""Side effects of a password change, hooked where Django reports every one of them.

Django calls `password_changed()` of each configured password validator whenever a user is saved
after `set_password()`: the change-password page, the reset link, the admin and `changepassword`
alike. Two things follow every change, whichever path made it:
- the CLI tokens are revoked, so no path leaves an old token working (a token is a second password;
  whoever had the old password may have made one);
- the account's wrong-password lock (django-axes) is lifted: it guarded a password that no longer
  works, and whoever set the new one proved the mailbox (reset link), the old password (change
  page) or is staff (admin). A student who forgot the password is not left locked out after
  setting a new one.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _


class OnPasswordChange:
    """A "validator" that never refuses a password; it only acts after a change."""

    def validate(self, password: str, user: AbstractBaseUser | None = None) -> None:
        return None

    def password_changed(self, password: str, user: AbstractBaseUser | None = None) -> None:
        if user is not None and user.pk is not None:
            from accounts.services import api_tokens_revoke_all, login_lock_lift

            api_tokens_revoke_all(user=user)
            login_lock_lift(user=user)

    def get_help_text(self) -> str:
        return _("设置新密码会使你的全部命令行 API 令牌失效。")
