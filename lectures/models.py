from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class LectureQuerySet(models.QuerySet["Lecture"]):
    def visible_to(self, user) -> LectureQuerySet:
        """Lectures are course material: every signed-in user (student, TA, instructor) reads all."""
        if user is None or not user.is_authenticated:
            return self.none()
        return self.all()


class Lecture(models.Model):
    number = models.PositiveSmallIntegerField(_("讲次"), unique=True)
    title = models.CharField(_("标题"), max_length=200)
    module = models.CharField(_("模块"), max_length=50)
    overview_md = models.TextField(_("概述（Markdown）"))
    overview_html = models.TextField(editable=False, default="")
    intro_md = models.TextField(_("导言（Markdown）"), blank=True, default="")
    intro_html = models.TextField(editable=False, default="")
    source_path = models.CharField(_("源文件"), max_length=300, editable=False, default="")
    content_hash = models.CharField(max_length=64, editable=False, default="")
    # Hash of title, module, overview and introduction as last imported: when the row's own
    # fields no longer hash to it, staff edited them in the admin ("" = not known yet).
    header_hash = models.CharField(max_length=64, editable=False, default="")
    imported_at = models.DateTimeField(_("导入时间"), null=True, editable=False)
    # Bumped by every import change and staff edit; cached pages are keyed on it, so a page cached
    # in any web process goes stale the moment this row changes.
    revision = models.PositiveIntegerField(default=0, editable=False)

    objects = LectureQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        verbose_name = _("讲")
        verbose_name_plural = _("讲")

    def __str__(self) -> str:
        return f"第 {self.number} 讲 · {self.title}"


class Section(models.Model):
    """A numbered heading of a lecture: ``N.M`` (level 2) or ``N.M.K`` (level 3)."""

    lecture = models.ForeignKey(Lecture, on_delete=models.CASCADE, related_name="sections")
    parent = models.ForeignKey(
        "self", on_delete=models.CASCADE, null=True, blank=True, related_name="children"
    )
    number = models.CharField(_("编号"), max_length=20)
    slug = models.SlugField(_("锚点"), max_length=40)
    level = models.PositiveSmallIntegerField(default=2)
    order = models.PositiveIntegerField(default=0)
    title = models.CharField(_("标题"), max_length=300)
    title_html = models.TextField(editable=False, default="")
    body_md = models.TextField(_("正文（Markdown）"), blank=True, default="")
    body_html = models.TextField(editable=False, default="")
    # Denormalised, lower-cased plain text for search (works the same on PostgreSQL and SQLite).
    search_title = models.TextField(editable=False, default="")
    search_headings = models.TextField(editable=False, default="")
    search_body = models.TextField(editable=False, default="")
    # sha256 of title + body as written by the last import; differs once staff edit the row.
    import_hash = models.CharField(max_length=64, editable=False, default="")
    edited_at = models.DateTimeField(_("人工修改时间"), null=True, blank=True, editable=False)
    edited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        editable=False,
        related_name="+",
    )

    class Meta:
        ordering = ["lecture__number", "order"]
        constraints = [
            models.UniqueConstraint(fields=["lecture", "slug"], name="lectures_section_slug_uniq")
        ]
        verbose_name = _("节")
        verbose_name_plural = _("节")

    def __str__(self) -> str:
        return f"{self.number} {self.title}"


class SectionRead(models.Model):
    """A student's "读完了" mark on a level-2 section."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="section_reads"
    )
    section = models.ForeignKey(Section, on_delete=models.CASCADE, related_name="reads")
    read_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "section"], name="lectures_read_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.section_id}"


class CoursePage(models.Model):
    """Course-level pages imported from ``content/course/`` (course map, 考前速查)."""

    slug = models.SlugField(unique=True)
    title = models.CharField(_("标题"), max_length=200)
    body_md = models.TextField(_("正文（Markdown）"))
    body_html = models.TextField(editable=False, default="")
    content_hash = models.CharField(max_length=64, editable=False, default="")

    class Meta:
        verbose_name = _("课程页面")
        verbose_name_plural = _("课程页面")

    def __str__(self) -> str:
        return self.title
