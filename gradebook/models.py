"""Gradebook core: what is graded (GradeItem), each student's score (Grade), and the audit trail.

A Grade keeps the automatic score and a staff override apart, so an override survives regrades and
clearing it restores the automatic score. Every change writes one append-only GradeEvent.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.access import AccessQuerySet, OwnedQuerySet
from accounts.fields import staff_field, student_field
from accounts.language import in_page_language
from gradebook import calc, reasons
from pdcsite import clock
from pdcsite.moments import local_text

# The rules of the CheckConstraints below, as field validators and clean(): the admin and every
# model form then say what is wrong at the field, in the page's language, instead of naming the
# constraint. The constraints stay, for every other writer.
MAX_POINTS_MIN = Decimal("0.01")
PERCENT = [
    MinValueValidator(0, _("不能小于 %(limit_value)s%%。")),
    MaxValueValidator(100, _("不能超过 %(limit_value)s%%。")),
]


def scores_shown_q(now: datetime, prefix: str = "") -> models.Q:
    """The one rule of when students see an item's scores, as a filter on items (``prefix``:
    the path to the item, "item__" from a Grade): staff released them, and the item's hold
    (``scores_from``) is empty or has passed. `GradeItem.scores_shown` is the same rule on one
    item already read."""
    return models.Q(**{f"{prefix}released": True}) & (
        models.Q(**{f"{prefix}scores_from__isnull": True})
        | models.Q(**{f"{prefix}scores_from__lte": now})
    )


class GradeItemQuerySet(AccessQuerySet):
    # Every signed-in user may see that an item exists; its scores follow Grade.visible_to.
    member_sees_all = True


# What an item key may be, wherever staff type one (the admin, the CSV import's new item): ASCII
# lower case, digits and ":_-". The apps read "lab:<id>" / "quiz:<id>" back as ids, and a key
# like "lab:²" passed str.isdigit() yet broke int().
ITEM_KEY = RegexValidator(
    r"^[a-z0-9][a-z0-9:_\-]{0,63}$",
    _("标识只能用小写英文字母、数字和 : _ -，以字母或数字开头，如 exam:final。"),
)


def item_key_well_formed(text: str) -> bool:
    """A key the rule allows: read before a query on a key from a request (a NUL byte in a form's
    hidden field reaches PostgreSQL, which refuses it with a server error)."""
    return ITEM_KEY.regex.fullmatch(text) is not None


class GradeItem(models.Model):
    class LatePolicy(models.TextChoices):
        NONE = "none", _("不扣分")
        PENALTY = "penalty", _("按天扣分")
        GRACE = "grace", _("先用宽限天数，再按天扣分")

    class CurveKind(models.TextChoices):
        NONE = "", _("无曲线")
        ADD = calc.CURVE_ADD, _("加分")
        SCALE = calc.CURVE_SCALE, _("乘以系数")

    class Kind(models.TextChoices):
        # Their own context: one item's kind is singular ("Quiz"), a category's name plural.
        QUIZ = "quiz", pgettext_lazy("grade item kind", "测验")
        LAB = "lab", pgettext_lazy("grade item kind", "实验")
        EXAM = "exam", pgettext_lazy("grade item kind", "考试")
        OTHER = "other", pgettext_lazy("grade item kind", "其他")

    key = models.CharField(
        max_length=64,
        unique=True,
        validators=[ITEM_KEY],
        help_text=_("稳定标识，如 quiz:12、lab:3"),
        error_messages={
            "unique": _("这个标识已被另一个成绩项使用。标识不能重复：请换一个，如 exam:2。")
        },
        verbose_name=_("标识"),
    )
    title = models.CharField(_("名称"), max_length=200)
    title_en = models.CharField(_("英文名称"), max_length=200, blank=True)
    kind = models.CharField(_("类型"), max_length=16, choices=Kind.choices)
    category = models.CharField(_("类别"), max_length=64, default="other")
    max_points = models.DecimalField(
        _("满分"),
        max_digits=8,
        decimal_places=2,
        validators=[MinValueValidator(MAX_POINTS_MIN, _("满分至少为 %(limit_value)s 分。"))],
    )
    weight = models.DecimalField(
        _("类别内权重"), max_digits=6, decimal_places=3, default=Decimal("1")
    )
    due_at = models.DateTimeField(_("截止时间"), null=True, blank=True)
    released = models.BooleanField(_("已发布成绩"), default=True)
    # A hold on top of staff's release: a quiz that shows points only once it closes keeps its
    # item's scores from students until then (quizzes.services.quiz_scores_from writes it).
    scores_from = models.DateTimeField(
        _("学生可见分数的时间"),
        null=True,
        blank=True,
        help_text=_(
            "学生从这个时间起才能看到这个成绩项的分数（成绩还须已发布）；留空则发布即可见。"
            "测验的成绩项按测验的得分公布设置自动填写。"
        ),
    )
    late_policy = models.CharField(
        _("迟交政策"), max_length=16, choices=LatePolicy.choices, default=LatePolicy.NONE
    )
    # Percent of the raw score lost per started late day, and the most a late item can lose (percent).
    late_penalty_per_day = models.DecimalField(
        _("每天扣分 %"), max_digits=5, decimal_places=2, default=Decimal("10"), validators=PERCENT
    )
    late_penalty_cap = models.DecimalField(
        _("扣分上限 %"), max_digits=5, decimal_places=2, default=Decimal("100"), validators=PERCENT
    )
    # The item's curve (calc.Curve), set and removed only through the audited services
    # (grade_item_curve_set / _remove), which keep the value within its bounds (curve_parse).
    # An add may be up to ±max_points (at most 999999.99), a factor needs 3 places: 9 digits.
    curve_kind = models.CharField(
        _("曲线"), max_length=8, choices=CurveKind.choices, default="", blank=True
    )
    curve_value = models.DecimalField(
        _("曲线数值"), max_digits=9, decimal_places=3, null=True, blank=True
    )
    curve_reason = models.TextField(_("曲线原因"), blank=True)
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("创建时间"))

    objects = GradeItemQuerySet.as_manager()

    class Meta:
        ordering = ("due_at", "key")
        verbose_name = pgettext_lazy("model name", "成绩项")
        verbose_name_plural = pgettext_lazy("model name, plural", "成绩项")
        permissions = [("release_grades", _("可以发布或隐藏成绩项的分数"))]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(max_points__gt=0), name="gradeitem_max_points_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(late_penalty_per_day__gte=0, late_penalty_per_day__lte=100)
                & models.Q(late_penalty_cap__gte=0, late_penalty_cap__lte=100),
                name="gradeitem_late_penalty_percent",
            ),
            models.CheckConstraint(
                condition=models.Q(curve_kind="", curve_value__isnull=True)
                | models.Q(curve_kind=calc.CURVE_ADD, curve_value__isnull=False)
                | models.Q(curve_kind=calc.CURVE_SCALE, curve_value__gt=0),
                name="gradeitem_curve_kind_value",
            ),
        ]

    def __str__(self) -> str:
        # The key (lab:9) is internal: never shown to people. English pages (the admin's lists
        # and breadcrumbs) get the English title where there is one, as the site's pages do.
        return in_page_language(self.title, self.title_en)

    @property
    def curve(self) -> calc.Curve | None:
        """The curve every graded score of this item gets (calc.py applies it); None when none."""
        if not self.curve_kind or self.curve_value is None:
            return None
        return calc.Curve(self.curve_kind, self.curve_value)

    def scores_shown(self, now: datetime | None = None) -> bool:
        """Students see this item's scores now (`scores_shown_q`, on the item in hand): staff
        released them and the hold, if any, has passed."""
        now = now or clock.now()
        return self.released and (self.scores_from is None or now >= self.scores_from)

    @property
    def from_quiz(self) -> bool:
        """Fed by a quiz ("quiz:<pk>", Quiz.gradebook_key), whose review options decide when
        students see its scores (``scores_from``)."""
        return self.key.startswith("quiz:")

    @property
    def from_lab(self) -> bool:
        """Fed by a lab assignment (gradinglab's `Assignment.grade_item_key`, "lab:<pk>"), whose
        submission pages show each autograded score whatever the gradebook releases."""
        return self.key.startswith("lab:")


class GradeQuerySet(OwnedQuerySet):
    def for_member(self, user) -> GradeQuerySet:
        """Staff see every grade; a student sees only their own grades of items whose scores
        are shown to students now (released, and past any hold: `scores_shown_q`)."""
        return self.owned_by(user).filter(scores_shown_q(clock.now(), "item__"))


class Grade(models.Model):
    class Source(models.TextChoices):
        QUIZ = "quiz", _("测验自动评分")
        LAB = "lab", _("实验自动评分")
        IMPORT = "import", _("导入")
        MANUAL = "manual", _("手工")

    student = student_field(on_delete=models.CASCADE, related_name="grades")
    item = models.ForeignKey(
        GradeItem, on_delete=models.CASCADE, related_name="grades", verbose_name=_("成绩项")
    )
    points = models.DecimalField(_("得分"), max_digits=8, decimal_places=2, help_text=_("生效分数"))
    auto_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("自动评分")
    )
    override_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("人工改分")
    )
    override_reason = models.TextField(blank=True, verbose_name=_("改分原因"))
    source = models.CharField(max_length=16, choices=Source.choices, verbose_name=_("来源"))
    # Which piece of work the automatic score came from ("submission:12", "quiz-attempt:5").
    counted_ref = models.CharField(max_length=64, blank=True, verbose_name=_("计分来源"))
    submitted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("提交时间"))
    # The student's other works that may count instead under a GRACE policy ([points, submitted
    # at, ref] each, `calc.frontier`): which is worth most depends on the grace days left when the
    # standing reaches this item, so the choice is made there (`calc.compute_standing`).
    candidates = models.JSONField(
        default=list, blank=True, editable=False, verbose_name=_("可替代计分的作业")
    )
    computed_at = models.DateTimeField(verbose_name=_("计算时间"))

    objects = GradeQuerySet.as_manager()

    class Meta:
        verbose_name = pgettext_lazy("model name", "成绩")
        verbose_name_plural = pgettext_lazy("model name, plural", "成绩")
        permissions = [("override_grade", _("可以说明原因并人工改分"))]
        constraints = [
            models.UniqueConstraint(fields=["student", "item"], name="grade_one_per_student_item")
        ]

    def __str__(self) -> str:
        return f"{self.student} · {self.item}: {self.points}"

    @property
    def is_overridden(self) -> bool:
        return self.override_points is not None


class GradeEventQuerySet(AccessQuerySet):
    """The audit trail is for staff (for_member: none); students see outcomes on their own pages."""


class GradeEvent(models.Model):
    """Append-only audit row: who changed which score, when, from what to what, and why."""

    class Action(models.TextChoices):
        RECORD = "record", _("自动评分")
        OVERRIDE = "override", _("人工改分")
        CLEAR_OVERRIDE = "clear_override", _("撤销人工改分")
        IMPORT = "import", _("导入")
        RELEASE = "release", _("发布")
        HIDE = "hide", _("隐藏")
        EXTENSION = "extension", _("延期")
        EXTENSION_REVOKE = "ext_revoke", _("撤销延期")
        EXCUSE = "excuse", _("免做")
        UNEXCUSE = "unexcuse", _("撤销免做")
        REGRADE_DECLINE = "regrade_decline", _("驳回复核")
        SUBMISSION_OVERRIDE = "sub_override", _("单次提交改分")
        SIMILARITY = "similarity", _("相似度结论")
        FLAG_KEEP = "flag_keep", _("标记复查：维持原判")  # flagreview: a TA's verdict on a flag
        FLAG_HIDE = "flag_hide", _("标记复查：不上排行榜")
        CURVE_SET = "curve_set", _("设置曲线")
        CURVE_CHANGE = "curve_change", _("修改曲线")
        CURVE_REMOVE = "curve_remove", _("撤销曲线")

    grade = models.ForeignKey(
        Grade,
        on_delete=models.PROTECT,
        related_name="events",
        null=True,
        blank=True,
        verbose_name=_("成绩"),
    )
    item = models.ForeignKey(
        GradeItem, on_delete=models.PROTECT, related_name="events", verbose_name=_("成绩项")
    )
    student = student_field(on_delete=models.PROTECT, related_name="grade_events", optional=True)
    actor = staff_field(
        _("操作人"), on_delete=models.PROTECT, related_name="grade_actions", optional=True
    )
    action = models.CharField(max_length=16, choices=Action.choices, verbose_name=_("操作"))
    source = models.CharField(max_length=16, blank=True, verbose_name=_("来源"))
    old_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("原分")
    )
    new_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("新分")
    )
    reason = models.TextField(blank=True, verbose_name=_("原因"))
    # A reason the system wrote, as an id and arguments (gradebook.reasons); {} for staff's words.
    reason_parts = models.JSONField(
        default=dict, blank=True, editable=False, verbose_name=_("原因（系统记录）")
    )
    at = models.DateTimeField(verbose_name=_("时间"))

    objects = GradeEventQuerySet.as_manager()

    class Meta:
        ordering = ("at", "pk")
        verbose_name = pgettext_lazy("model name", "成绩变更记录")
        verbose_name_plural = pgettext_lazy("model name, plural", "成绩变更记录")

    def __str__(self) -> str:
        old = "—" if self.old_points is None else self.old_points
        return f"{local_text(self.at)} {self.get_action_display()} {old}→{self.new_points}"

    def save(self, *args, **kwargs) -> None:
        if self.pk is not None:
            raise GradeEventImmutable("GradeEvent rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise GradeEventImmutable("GradeEvent rows are append-only")

    @property
    def shown_reason(self) -> str:
        """The reason in the page's language when the system wrote it, else as written. Rows
        from before reason_parts are read back from the English the code wrote then."""
        return reasons.shown(self.reason, self.reason_parts)


class GradeEventImmutable(Exception):
    pass


# The built-in categories (Category.DEFAULTS and the grade items' kinds) by their names in the page's
# language; a category staff made is named by its title, as they wrote it. Their own context: a
# category holds many items ("Labs"), where the same words elsewhere name one ("Lab", the nav's).
BUILT_IN_CATEGORY_NAMES = {
    "quiz": pgettext_lazy("grade category", "测验"),
    "lab": pgettext_lazy("grade category", "实验"),
    "exam": pgettext_lazy("grade category", "考试"),
    "other": pgettext_lazy("grade category", "其他"),
}


def category_name(key: str, title: str = "") -> str:
    """How pages and files name a category: a built-in one in the page's language (its stored title
    is the Chinese one), one staff made by its title, else by its key."""
    built_in = BUILT_IN_CATEGORY_NAMES.get(key)
    return str(built_in) if built_in is not None else (title or key)


class Category(models.Model):
    """A category's share of the course total and how many of its lowest items are dropped.

    With no rows at all (a fresh or flushed database) the course's published split applies:
    `Category.defaults()`; migration 0002 writes the same rows so staff can edit them.
    """

    DEFAULTS = (("quiz", "测验", "30"), ("lab", "实验", "50"), ("exam", "考试", "20"))

    key = models.CharField(
        _("类别标识"),
        max_length=64,
        unique=True,
        error_messages={"unique": _("这个类别标识已被另一个类别使用。请换一个，如 project。")},
    )
    title = models.CharField(_("名称"), max_length=100)
    weight = models.DecimalField(_("权重 %"), max_digits=5, decimal_places=2, validators=PERCENT)
    drop_lowest = models.PositiveSmallIntegerField(_("去掉最低的 N 项"), default=0)
    position = models.PositiveSmallIntegerField(_("排序"), default=0)

    class Meta:
        ordering = ("position", "key")
        verbose_name = pgettext_lazy("model name", "成绩类别")
        verbose_name_plural = pgettext_lazy("model name, plural", "成绩类别")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weight__gte=0, weight__lte=100), name="category_weight_percent"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.display_name} ({self.weight}%)"

    @property
    def display_name(self) -> str:
        """As pages and files name it (category_name)."""
        return category_name(self.key, self.title)

    @classmethod
    def effective(cls) -> list[Category]:
        """The configured categories, or the unsaved defaults when none are configured."""
        rows = list(cls.objects.all())
        if rows:
            return rows
        return [
            cls(key=key, title=title, weight=Decimal(weight), position=position)
            for position, (key, title, weight) in enumerate(cls.DEFAULTS)
        ]


class GradebookSettings(models.Model):
    """Course-wide settings; one row (pk=1)."""

    grace_days = models.PositiveSmallIntegerField(_("宽限天数预算"), default=3)

    class Meta:
        verbose_name = pgettext_lazy("model name", "成绩册设置")
        verbose_name_plural = pgettext_lazy("model name, plural", "成绩册设置")

    def __str__(self) -> str:
        return str(_("宽限天数：%(n)d") % {"n": self.grace_days})

    @classmethod
    def current(cls) -> GradebookSettings:
        return cls.objects.get_or_create(pk=1)[0]


class StudentItemQuerySet(OwnedQuerySet):
    """Staff see every row; a student only their own."""


class StaffGrant(models.Model):
    """What staff grant one student on one item (an extension, an excusal): who, when."""

    granted_by = staff_field(_("批准人"), on_delete=models.PROTECT, related_name="+")
    granted_at = models.DateTimeField(verbose_name=_("批准时间"))

    objects = StudentItemQuerySet.as_manager()

    class Meta:
        abstract = True


class Extension(StaffGrant):
    """A per-student deadline: a new due date, or extra days on top of the item's due date."""

    student = student_field(on_delete=models.CASCADE, related_name="extensions")
    item = models.ForeignKey(
        GradeItem, on_delete=models.CASCADE, related_name="extensions", verbose_name=_("成绩项")
    )
    due_at = models.DateTimeField(_("新截止时间"), null=True, blank=True)
    extra_days = models.PositiveSmallIntegerField(_("延长天数"), null=True, blank=True)
    reason = models.TextField(_("原因"), blank=True)

    class Meta:
        verbose_name = pgettext_lazy("model name", "延期")
        verbose_name_plural = pgettext_lazy("model name, plural", "延期")
        constraints = [
            models.UniqueConstraint(fields=["student", "item"], name="extension_one_per_item"),
            models.CheckConstraint(
                condition=models.Q(due_at__isnull=False) | models.Q(extra_days__isnull=False),
                name="extension_has_date_or_days",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.student} · {self.item}: {self.due_at or f'+{self.extra_days}'}"

    def clean(self) -> None:
        """The extension_has_date_or_days rule, at the field next to the date."""
        super().clean()
        if self.due_at is None and self.extra_days is None:
            raise ValidationError({"extra_days": _("请填写新截止时间或延长天数（二选一）。")})

    def effective_due(self) -> datetime | None:
        """The student's own due date, the one rule every page and the lab's submit check read.
        An extension only ever extends: when staff move the item's due date past a granted date,
        the item's date holds (and rows granted before earlier dates were refused stay harmless).
        Extra days follow the item's due date if staff move it later."""
        item_due = self.item.due_at
        if self.due_at is not None:
            return max(self.due_at, item_due) if item_due else self.due_at
        if item_due is None:
            return None
        return item_due + timedelta(days=self.extra_days or 0)


class Excusal(StaffGrant):
    """The student is excused from the item: it counts neither for nor against them."""

    student = student_field(on_delete=models.CASCADE, related_name="excusals")
    item = models.ForeignKey(
        GradeItem, on_delete=models.CASCADE, related_name="excusals", verbose_name=_("成绩项")
    )
    reason = models.TextField(_("原因"))

    class Meta:
        verbose_name = pgettext_lazy("model name", "免做")
        verbose_name_plural = pgettext_lazy("model name, plural", "免做")
        constraints = [
            models.UniqueConstraint(fields=["student", "item"], name="excusal_one_per_item"),
        ]

    def __str__(self) -> str:
        return f"{self.student} · {self.item} · {_('免做')}"


class RegradeRequest(models.Model):
    """A student's request to look at a score again, and the staff answer."""

    class Status(models.TextChoices):
        OPEN = "open", _("待处理")
        ACCEPTED = "accepted", _("已改分")
        DECLINED = "declined", _("已驳回")

    student = student_field(on_delete=models.CASCADE, related_name="regrade_requests")
    item = models.ForeignKey(
        GradeItem,
        on_delete=models.CASCADE,
        related_name="regrade_requests",
        verbose_name=_("成绩项"),
    )
    ref = models.CharField(
        _("对象"), max_length=64, blank=True, help_text=_("如 submission:123、quiz-attempt:45")
    )
    message = models.TextField(_("说明"))
    status = models.CharField(
        max_length=16, choices=Status.choices, default=Status.OPEN, verbose_name=_("状态")
    )
    response = models.TextField(_("答复"), blank=True)
    old_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("原分")
    )
    new_points = models.DecimalField(
        max_digits=8, decimal_places=2, null=True, blank=True, verbose_name=_("新分")
    )
    created_at = models.DateTimeField(verbose_name=_("提交时间"))
    resolved_by = staff_field(
        _("处理人"), on_delete=models.PROTECT, related_name="+", optional=True
    )
    resolved_at = models.DateTimeField(null=True, blank=True, verbose_name=_("处理时间"))

    objects = StudentItemQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = pgettext_lazy("model name", "复核申请")
        verbose_name_plural = pgettext_lazy("model name, plural", "复核申请")
        permissions = [("resolve_regraderequest", _("可以答复学生的复核申请"))]

    def __str__(self) -> str:
        return f"#{self.pk} {self.student} · {self.item} ({self.get_status_display()})"
