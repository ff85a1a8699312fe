from __future__ import annotations

from collections.abc import Iterator

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import PasswordResetForm
from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext_lazy as _

from pdcsite.uploads import csv_text


class ResetOrSetPasswordForm(PasswordResetForm):
    """Django's reset form, also for roster-imported users who never set a password.

    Django skips users with an unusable password (they may log in elsewhere, e.g. LDAP); here every
    account is local and an unusable password only means "not set yet", so a student whose
    invitation was lost can ask for the link again.
    """

    def get_users(self, email: str) -> Iterator[AbstractBaseUser]:
        users = get_user_model()._default_manager.filter(email__iexact=email, is_active=True)
        return (user for user in users if user.email.casefold() == email.casefold())


class RosterUploadForm(forms.Form):
    file = forms.FileField(label=_("名单 CSV 文件"))
    MAX_BYTES = 2 * 1024 * 1024  # 2 MiB: a course roster is a few dozen KiB

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("文件超过 2 MiB。"))
        self.text = csv_text(upload.read())
        return upload


class RosterConfirmForm(forms.Form):
    payload = forms.CharField(widget=forms.HiddenInput)
    invite = forms.BooleanField(
        label=_("给尚未设置密码的人发送邀请邮件"), required=False, initial=True
    )
    # Shown only when the file lowers someone's staff role; never ticked for the uploader.
    confirm_demotions = forms.BooleanField(
        label=_("我确认降低上表中标为“降级”的人的角色，他们将失去相应的员工页面。"),
        required=False,
    )
