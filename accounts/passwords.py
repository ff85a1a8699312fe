"""Side effects of a password change, hooked where Django reports every one of them.

Django calls `password_changed()` of each configured password validator whenever a user is saved
after `set_password()`: the change-password page, the reset link, the admin and `changepassword`
alike. Revoking the CLI tokens there means no path can change a password and leave an old token
working (a token is a second password; whoever had the old password may have made one).
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _


class RevokeApiTokensOnChange:
    """A "validator" that never refuses a password; it only acts after a change."""

    def validate(self, password: str, user: AbstractBaseUser | None = None) -> None:
        return None

    def password_changed(self, password: str, user: AbstractBaseUser | None = None) -> None:
        if user is not None and user.pk is not None:
            from accounts.services import api_tokens_revoke_all

            api_tokens_revoke_all(user=user)

    def get_help_text(self) -> str:
        return _("设置新密码会使你的全部命令行 API 令牌失效。")
