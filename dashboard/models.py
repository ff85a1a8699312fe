"""Announcements that staff post for the home page (Markdown, shown until they expire)."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.fields import staff_field


class AnnouncementQuerySet(models.QuerySet):
    def current(self, now=None) -> AnnouncementQuerySet:
        """Shown now: started, not expired (expiry is exclusive: at expires_at it is gone)."""
        now = now or timezone.now()
        return self.filter(starts_at__lte=now, expires_at__gt=now).order_by("-pinned", "-starts_at")


class Announcement(models.Model):
    title = models.CharField(_("标题"), max_length=200)
    body_md = models.TextField(_("正文（Markdown）"), blank=True)
    body_html = models.TextField(editable=False, default="", verbose_name=_("正文（HTML）"))
    pinned = models.BooleanField(_("置顶"), default=False)
    starts_at = models.DateTimeField(_("开始显示"), default=timezone.now)
    expires_at = models.DateTimeField(_("过期时间"), help_text=_("到这一时刻起不再显示"))
    created_by = staff_field(_("发布人"), on_delete=models.SET_NULL, optional=True, editable=False)
    created_at = models.DateTimeField(_("创建时间"), auto_now_add=True)

    objects = AnnouncementQuerySet.as_manager()

    class Meta:
        ordering = ("-starts_at",)
        verbose_name = pgettext_lazy("model name", "公告")
        verbose_name_plural = pgettext_lazy("model name, plural", "公告")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(expires_at__gt=models.F("starts_at")),
                name="announcement_expires_after_start",
            )
        ]

    def __str__(self) -> str:
        return self.title

    def clean(self) -> None:
        """The rule of the announcement_expires_after_start constraint, said at the field in the
        page's language (the constraint stays, for every other writer)."""
        super().clean()
        if self.starts_at and self.expires_at and self.expires_at <= self.starts_at:
            raise ValidationError({"expires_at": _("过期时间必须晚于开始显示时间。")})
