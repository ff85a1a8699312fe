from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from accounts.access import AccessQuerySet
from accounts.fields import staff_field
from accounts.language import in_page_language


def _english_version(verbose_name, *, max_length: int, help_text) -> models.CharField:
    """An imported name's optional English version: English pages show it, or the Chinese one
    when it is empty (``in_page_language``)."""
    return models.CharField(
        verbose_name, max_length=max_length, blank=True, default="", help_text=help_text
    )


class LectureQuerySet(AccessQuerySet):
    # Lectures are course material: every signed-in user (student, TA, instructor) reads all.
    member_sees_all = True


class Lecture(models.Model):
    number = models.PositiveSmallIntegerField(_("讲次"), unique=True)
    title = models.CharField(_("标题"), max_length=200)
    title_en = _english_version(
        _("英文标题"), max_length=200, help_text=_("英文页面显示；空 = 显示中文标题")
    )
    module = models.CharField(_("模块"), max_length=50)
    module_en = _english_version(
        _("英文模块名"), max_length=50, help_text=_("英文页面显示；空 = 显示中文模块名")
    )
    overview_md = models.TextField(_("概述（Markdown）"))
    overview_html = models.TextField(editable=False, default="", verbose_name=_("概述（HTML）"))
    intro_md = models.TextField(_("导言（Markdown）"), blank=True, default="")
    intro_html = models.TextField(editable=False, default="", verbose_name=_("导言（HTML）"))
    source_path = models.CharField(_("源文件"), max_length=300, editable=False, default="")
    content_hash = models.CharField(
        max_length=64, editable=False, default="", verbose_name=_("内容哈希")
    )
    # Hash of title, module, overview and introduction as last imported: when the row's own
    # fields no longer hash to it, staff edited them in the admin ("" = not known yet).
    header_hash = models.CharField(
        max_length=64, editable=False, default="", verbose_name=_("头部哈希")
    )
    imported_at = models.DateTimeField(_("导入时间"), null=True, editable=False)
    # Bumped by every import change and staff edit; cached pages are keyed on it, so a page cached
    # in any web process goes stale the moment this row changes.
    revision = models.PositiveIntegerField(default=0, editable=False, verbose_name=_("版本"))

    objects = LectureQuerySet.as_manager()

    class Meta:
        ordering = ["number"]
        verbose_name = pgettext_lazy("model name", "讲")
        verbose_name_plural = pgettext_lazy("model name, plural", "讲")

    def __str__(self) -> str:
        # The admin's lists, breadcrumbs and choosers: in the page's language.
        return f"{gettext('第 %(n)s 讲') % {'n': self.number}} · {self.shown_title}"

    @property
    def shown_title(self) -> str:
        """The title in the page's language: the English one on English pages, when there is one."""
        return in_page_language(self.title, self.title_en)

    @property
    def shown_module(self) -> str:
        return in_page_language(self.module, self.module_en)


class Section(models.Model):
    """A numbered heading of a lecture: ``N.M`` (level 2) or ``N.M.K`` (level 3)."""

    lecture = models.ForeignKey(
        Lecture, on_delete=models.CASCADE, related_name="sections", verbose_name=_("讲")
    )
    parent = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="children",
        verbose_name=_("上级小节"),
    )
    number = models.CharField(_("编号"), max_length=20)
    slug = models.SlugField(_("锚点"), max_length=40)
    level = models.PositiveSmallIntegerField(default=2, verbose_name=_("层级"))
    order = models.PositiveIntegerField(default=0, verbose_name=_("顺序"))
    title = models.CharField(_("标题"), max_length=300)
    title_html = models.TextField(editable=False, default="", verbose_name=_("标题（HTML）"))
    title_en = _english_version(
        _("英文标题"), max_length=300, help_text=_("英文页面显示；空 = 显示中文标题")
    )
    title_en_html = models.TextField(editable=False, default="", verbose_name=_("英文标题（HTML）"))
    body_md = models.TextField(_("正文（Markdown）"), blank=True, default="")
    body_html = models.TextField(editable=False, default="", verbose_name=_("正文（HTML）"))
    # Denormalised, lower-cased plain text for search (works the same on PostgreSQL and SQLite).
    search_title = models.TextField(editable=False, default="", verbose_name=_("搜索用标题"))
    search_title_en = models.TextField(editable=False, default="", verbose_name=_("搜索用英文标题"))
    search_headings = models.TextField(editable=False, default="", verbose_name=_("搜索用小标题"))
    search_body = models.TextField(editable=False, default="", verbose_name=_("搜索用正文"))
    # sha256 of title + body as written by the last import; differs once staff edit the row.
    import_hash = models.CharField(
        max_length=64, editable=False, default="", verbose_name=_("导入哈希")
    )
    edited_at = models.DateTimeField(_("人工修改时间"), null=True, blank=True, editable=False)
    edited_by = staff_field(
        _("修改人"), on_delete=models.SET_NULL, related_name="+", optional=True, editable=False
    )

    class Meta:
        ordering = ["lecture__number", "order"]
        constraints = [
            models.UniqueConstraint(fields=["lecture", "slug"], name="lectures_section_slug_uniq")
        ]
        verbose_name = pgettext_lazy("model name", "节")
        verbose_name_plural = pgettext_lazy("model name, plural", "节")

    def __str__(self) -> str:
        return f"{self.number} {self.shown_title}"

    @property
    def shown_title(self) -> str:
        """The title in the page's language: the English one on English pages, when there is one."""
        return in_page_language(self.title, self.title_en)


class SectionRead(models.Model):
    """A student's "读完了" mark on a level-2 section."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="section_reads",
        verbose_name=_("用户"),
    )
    section = models.ForeignKey(
        Section,
        on_delete=models.CASCADE,
        related_name="reads",
        verbose_name=pgettext_lazy("model name", "节"),
    )
    read_at = models.DateTimeField(_("读完时间"), auto_now_add=True)

    class Meta:
        verbose_name = pgettext_lazy("model name", "已读标记")
        verbose_name_plural = pgettext_lazy("model name, plural", "已读标记")
        constraints = [
            models.UniqueConstraint(fields=["user", "section"], name="lectures_read_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} read {self.section_id}"


class CoursePage(models.Model):
    """Course-level pages imported from ``content/course/`` (course map, 考前速查)."""

    slug = models.SlugField(unique=True, verbose_name=_("短名"))
    title = models.CharField(_("标题"), max_length=200)
    body_md = models.TextField(_("正文（Markdown）"))
    body_html = models.TextField(editable=False, default="", verbose_name=_("正文（HTML）"))
    content_hash = models.CharField(
        max_length=64, editable=False, default="", verbose_name=_("内容哈希")
    )

    class Meta:
        verbose_name = pgettext_lazy("model name", "课程页面")
        verbose_name_plural = pgettext_lazy("model name, plural", "课程页面")

    def __str__(self) -> str:
        return self.title
