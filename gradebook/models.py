"""Gradebook core: what is graded (GradeItem), each student's score (Grade), and the audit trail.

A Grade keeps the automatic score and a staff override apart, so an override survives regrades and
clearing it restores the automatic score. Every change writes one append-only GradeEvent.
"""

from __future__ import annotations

from decimal import Decimal

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class GradeItem(models.Model):
    class Kind(models.TextChoices):
        QUIZ = "quiz", _("测验")
        LAB = "lab", _("实验")
        EXAM = "exam", _("考试")
        OTHER = "other", _("其他")

    key = models.CharField(max_length=64, unique=True, help_text=_("稳定标识，如 quiz:12、lab:3"))
    title = models.CharField(_("名称"), max_length=200)
    kind = models.CharField(_("类型"), max_length=16, choices=Kind.choices)
    category = models.CharField(_("类别"), max_length=64, default="other")
    max_points = models.DecimalField(_("满分"), max_digits=8, decimal_places=2)
    weight = models.DecimalField(
        _("类别内权重"), max_digits=6, decimal_places=3, default=Decimal("1")
    )
    due_at = models.DateTimeField(_("截止时间"), null=True, blank=True)
    released = models.BooleanField(_("已发布成绩"), default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("due_at", "key")
        verbose_name = _("成绩项")
        verbose_name_plural = _("成绩项")
        permissions = [("release_grades", "Can release or hide an item's scores")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_points__gt=0), name="gradeitem_max_points_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.key})"


class GradeQuerySet(models.QuerySet):
    def visible_to(self, user) -> GradeQuerySet:
        """Staff see every grade; a student sees only their own grades of released items."""
        from accounts.roles import is_staff_member

        if not user.is_authenticated:
            return self.none()
        if is_staff_member(user):
            return self
        return self.filter(student=user, item__released=True)


class Grade(models.Model):
    class Source(models.TextChoices):
        QUIZ = "quiz", _("测验自动评分")
        LAB = "lab", _("实验自动评分")
        IMPORT = "import", _("导入")
        MANUAL = "manual", _("手工")

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="grades"
    )
    item = models.ForeignKey(GradeItem, on_delete=models.CASCADE, related_name="grades")
    points = models.DecimalField(_("得分"), max_digits=8, decimal_places=2, help_text=_("生效分数"))
    auto_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    override_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    override_reason = models.TextField(blank=True)
    source = models.CharField(max_length=16, choices=Source.choices)
    submitted_at = models.DateTimeField(null=True, blank=True)
    computed_at = models.DateTimeField()

    objects = GradeQuerySet.as_manager()

    class Meta:
        verbose_name = _("成绩")
        verbose_name_plural = _("成绩")
        permissions = [("override_grade", "Can override a score with a reason")]
        constraints = [
            models.UniqueConstraint(fields=["student", "item"], name="grade_one_per_student_item")
        ]

    def __str__(self) -> str:
        return f"{self.student} · {self.item.key}: {self.points}"

    @property
    def is_overridden(self) -> bool:
        return self.override_points is not None


class GradeEvent(models.Model):
    """Append-only audit row: who changed which score, when, from what to what, and why."""

    class Action(models.TextChoices):
        RECORD = "record", _("自动评分")
        OVERRIDE = "override", _("人工改分")
        CLEAR_OVERRIDE = "clear_override", _("撤销人工改分")
        IMPORT = "import", _("导入")
        RELEASE = "release", _("发布")
        HIDE = "hide", _("隐藏")

    grade = models.ForeignKey(
        Grade, on_delete=models.PROTECT, related_name="events", null=True, blank=True
    )
    item = models.ForeignKey(GradeItem, on_delete=models.PROTECT, related_name="events")
    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="grade_events",
        null=True,
        blank=True,
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="grade_actions",
        null=True,
        blank=True,
    )
    action = models.CharField(max_length=16, choices=Action.choices)
    source = models.CharField(max_length=16, blank=True)
    old_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    new_points = models.DecimalField(max_digits=8, decimal_places=2, null=True, blank=True)
    reason = models.TextField(blank=True)
    at = models.DateTimeField()

    class Meta:
        ordering = ("at", "pk")
        verbose_name = _("成绩变更记录")
        verbose_name_plural = _("成绩变更记录")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.action} {self.old_points}→{self.new_points}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise GradeEventImmutable("GradeEvent rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise GradeEventImmutable("GradeEvent rows are append-only")


class GradeEventImmutable(Exception):
    pass
