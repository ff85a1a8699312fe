from __future__ import annotations

import hashlib
import secrets
import unicodedata

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models.functions import Lower
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

# One answer whether another nickname or another account's username holds the name: a separate
# "is someone's username" told anyone with a profile which usernames (student IDs) exist.
PSEUDONYM_TAKEN = _("这个昵称已被别人使用，请换一个。")
PSEUDONYM_BAD_CHARACTER = _("昵称不能含控制字符或看不见的格式字符。")


def pseudonym_has_bad_character(name: str) -> bool:
    """A control character (Cc: a NUL would reach PostgreSQL, which refuses it, a 500) or an
    invisible format character (Cf: zero-width space, word joiner, bidi overrides: "student_a"
    with one in it shows as another student's username on the leaderboard). The profile page
    (services.profile_pseudonym_set) and the admin (Profile.clean) refuse both."""
    return any(unicodedata.category(ch) in ("Cc", "Cf") for ch in name)


class Profile(models.Model):
    """Roster data that Django's User has no field for."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="profile",
        verbose_name=_("用户"),
    )
    student_id = models.CharField(
        _("学号"),
        max_length=32,
        unique=True,
        error_messages={
            "unique": _("这个学号已属于另一名用户。请核对学号：一个学生只需一个账户。")
        },
    )
    display_name = models.CharField(_("姓名"), max_length=150)
    section = models.CharField(_("班级"), max_length=64, blank=True)
    pseudonym = models.CharField(_("排行榜昵称"), max_length=40, blank=True)
    # When the last set-your-password e-mail went out (services.roster_invite); empty: never. The
    # roster tells "not invited yet" from "invited on ..." by it, not by the password alone.
    invited_at = models.DateTimeField(_("邀请时间"), null=True, blank=True)

    class Meta:
        verbose_name = pgettext_lazy("model name", "学生档案")
        verbose_name_plural = pgettext_lazy("model name, plural", "学生档案")
        constraints = [
            # A leaderboard nickname names one student, whatever the letter case: held by the
            # database, so two saves at once or an admin edit cannot give two students one name.
            models.UniqueConstraint(
                Lower("pseudonym"),
                condition=~models.Q(pseudonym=""),
                name="accounts_profile_pseudonym_uniq_ci",
                violation_error_message=PSEUDONYM_TAKEN,
            ),
        ]

    def __str__(self) -> str:
        return f"{self.student_id} {self.display_name}"

    def clean(self) -> None:
        """The rules on a nickname beyond its column and the unique constraint: here so that the
        profile page (services.profile_pseudonym_set) and the admin's form both apply them."""
        super().clean()
        # NFKC, as usernames are kept: a full-width copy of a username passes for it just as well.
        name = unicodedata.normalize("NFKC", self.pseudonym).strip()
        if not name:
            return
        if pseudonym_has_bad_character(name):  # before the query below: a NUL would fail it
            raise ValidationError({"pseudonym": PSEUDONYM_BAD_CHARACTER})
        # Another account's username on the leaderboard passes for that person (student IDs are
        # usernames). Only a check: a later account named like a nickname is not refused.
        others = get_user_model()._default_manager.exclude(pk=self.user_id)
        if others.filter(username__iexact=name).exists():
            raise ValidationError({"pseudonym": PSEUDONYM_TAKEN})


def _hash_token(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


class ApiTokenQuerySet(models.QuerySet):
    def by_raw(self, raw: str) -> ApiToken | None:
        return (
            self.select_related("user")
            .filter(key_hash=_hash_token(raw), revoked_at__isnull=True)
            .first()
        )


class ApiToken(models.Model):
    """A student's personal token for the command-line tool. Only the SHA-256 of the token is stored."""

    PREFIX = "pdc_"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="api_tokens",
        verbose_name=_("用户"),
    )
    key_hash = models.CharField(max_length=64, unique=True, verbose_name=_("令牌哈希"))
    label = models.CharField(
        max_length=64, default="cli", verbose_name=pgettext_lazy("name of a thing", "名称")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("创建时间"))
    last_used_at = models.DateTimeField(null=True, blank=True, verbose_name=_("最近使用"))
    revoked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("吊销时间"))

    objects = ApiTokenQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("model name", "API 令牌")
        verbose_name_plural = pgettext_lazy("model name, plural", "API 令牌")

    def __str__(self) -> str:
        return f"token {self.pk} of {self.user}"

    @classmethod
    def new_raw(cls) -> str:
        return cls.PREFIX + secrets.token_urlsafe(32)

    @staticmethod
    def hash(raw: str) -> str:
        return _hash_token(raw)
