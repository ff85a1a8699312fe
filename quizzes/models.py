"""Quiz engine data: the question bank (Question, Choice), quizzes and their pools, attempts, answers.

Invariants kept by the database, not only by code:
- one Answer per (attempt, question): concurrent autosaves upsert the same row;
- one in-progress Attempt per (quiz, student): a double "start" cannot open two;
- attempt numbers are unique per (quiz, student).
"""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.access import AccessQuerySet, OwnedQuerySet
from accounts.fields import student_field
from accounts.language import in_page_language


class Question(models.Model):
    class Type(models.TextChoices):
        SINGLE = "single", _("单选")
        MULTIPLE = "multiple", _("多选")
        TRUEFALSE = "truefalse", _("判断")
        NUMERIC = "numeric", _("数值")
        PARAM = "param", _("参数化数值")

    class Tag(models.TextChoices):
        RECALL = "recall", _("记忆")
        UNDERSTAND = "understand", _("理解")
        COMPUTE = "compute", _("计算")

    bank_id = models.CharField(
        _("题目编号"),
        max_length=64,
        unique=True,
        error_messages={
            "unique": _("这个题目编号已被另一道题使用。请换一个，例如下一个序号（l5-s21）。")
        },
    )
    lecture = models.PositiveSmallIntegerField(_("讲次"))
    section = models.CharField(_("章节锚点"), max_length=32, help_text=_("如 sec-2-26"))
    qtype = models.CharField(_("题型"), max_length=16, choices=Type.choices)
    tag = models.CharField(_("考查层次"), max_length=16, choices=Tag.choices, blank=True)
    stem = models.TextField(_("题干"))
    explanation = models.TextField(_("解析"))
    # English text of the same question; shown when the reader chose English (blank: Chinese).
    stem_en = models.TextField(_("题干（英文）"), blank=True)
    explanation_en = models.TextField(_("解析（英文）"), blank=True)
    points = models.DecimalField(_("分值"), max_digits=6, decimal_places=2, default=Decimal("1"))
    answer_bool = models.BooleanField(null=True, blank=True, verbose_name=_("判断题答案"))
    answer_number = models.DecimalField(
        max_digits=20, decimal_places=8, null=True, blank=True, verbose_name=_("数值答案")
    )
    abs_tol = models.DecimalField(
        max_digits=20, decimal_places=8, default=Decimal("0"), verbose_name=_("绝对容差")
    )
    rel_tol = models.DecimalField(
        max_digits=10, decimal_places=8, default=Decimal("0"), verbose_name=_("相对容差")
    )
    unit = models.CharField(_("单位"), max_length=32, blank=True)
    unit_en = models.CharField(_("单位（英文）"), max_length=32, blank=True)
    generator = models.CharField(_("生成器"), max_length=64, blank=True)
    source_file = models.CharField(max_length=200, blank=True, verbose_name=_("来源文件"))
    # Who owns the row: a bank file (import_quizzes keeps it in step with the file) or the staff
    # pages (import never overwrites it; staff export it to the YAML format to keep it in git).
    origin = models.CharField(
        _("来源"),
        max_length=8,
        choices=[("file", _("题库文件")), ("staff", _("网页编写"))],
        default="file",
    )
    updated_at = models.DateTimeField(auto_now=True, verbose_name=_("更新时间"))

    class Meta:
        ordering = ("lecture", "bank_id")
        verbose_name = pgettext_lazy("model name", "题目")
        verbose_name_plural = pgettext_lazy("model name, plural", "题目")

    def __str__(self) -> str:
        # The admin's lists, breadcrumbs and question pickers: in the page's language, as the
        # quiz pages show a question.
        return f"{self.bank_id} · {in_page_language(self.stem, self.stem_en)[:40]}"

    @property
    def has_choices(self) -> bool:
        return self.qtype in (self.Type.SINGLE, self.Type.MULTIPLE)


class Choice(models.Model):
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="choices", verbose_name=_("题目")
    )
    # The choice's identity: answers store keys, so a key must not change when choices are
    # reordered (bank files derive it from the text, quizzes.bank.choice_key). ``position`` is
    # only the order in the file; students see a per-attempt shuffle.
    key = models.CharField(_("选项键"), max_length=16)
    position = models.PositiveSmallIntegerField(_("顺序"), default=0)
    text = models.TextField(_("选项内容"))
    text_en = models.TextField(_("选项内容（英文）"), blank=True)
    correct = models.BooleanField(_("正确"), default=False)

    class Meta:
        ordering = ("question", "position", "key")
        verbose_name = pgettext_lazy("model name", "选项")
        verbose_name_plural = pgettext_lazy("model name, plural", "选项")
        constraints = [
            models.UniqueConstraint(fields=["question", "key"], name="quizzes_choice_key_uniq")
        ]

    def __str__(self) -> str:
        return f"{self.key}. {in_page_language(self.text, self.text_en)[:40]}"


class QuizQuerySet(AccessQuerySet):
    def for_member(self, user) -> QuizQuerySet:
        """Staff see every quiz; students see published ones."""
        return self.filter(published=True)


# Choices named by their labels, never by their stored codes (those are not shown to people).
GRADING_HELP = _(
    "多次作答如何汇总：最高分 = 取最高的一次；最后一次 = 最后一次提交；第一次 = 第一次提交；"
    "平均分 = 所有已提交作答的平均分。"
)
PARTIAL_HELP = _(
    "多选题部分得分（n = 选项总数，c = 正确选项数，t = 选中的正确项数，f = 选中的错误项数）："
    "全对才得分：选中集合与正确集合完全一致得满分，否则 0；"
    "净正确：max(0, (t − f) / c)；"
    "覆盖率：(t / c) × (t / (t + f))，一项都没选得 0；"
    "每个选项计分：每个选项是一次判断，(t + 未选中的错误项数) / n。"
)


# Path segments quizzes/urls.py gives other pages: a quiz named "staff" could not be opened at
# /quizzes/staff/ (the staff list), one named "bank" not edited at /quizzes/staff/bank/ (the bank).
# quizzes/tests/test_url_precedence.py derives the list from the URLconf and checks it.
RESERVED_SLUGS = frozenset({"staff", "bank"})

# Bounds of a quiz's settings: the rules of the model, so the staff editor and the admin share them.
# Lecture numbers, as the bank's filters and question form take them (quizzes.forms): a range, not
# "a lecture that exists", because a quiz may be drafted before its lecture's notes are imported
# (the demo has no lecture 6 yet) and the number only sorts and labels the quiz.
LECTURE_MIN, LECTURE_MAX = 1, 99
# Minutes. A timed attempt longer than a day is a typo: a quiz open for days is its open window
# (opens_at … closes_at), not a time limit; and a huge limit overflowed the attempt's deadline.
TIME_LIMIT_MAX_MINUTES = 24 * 60
# Points of the gradebook item: above 0 (the gradebook's own constraint refuses a maximum of 0),
# and at most 1000, a hundred times the usual 10: items are weighed within their category, so a
# larger maximum is a slip of the keyboard, as -10 was.
GRADE_MAX_POINTS_MIN, GRADE_MAX_POINTS_MAX = Decimal("0.01"), Decimal("1000")
# Per cent, as the quiz_late_penalty_0_100 constraint below (the field's validators say it first).
LATE_PENALTY_MAX_PERCENT = 100


class Quiz(models.Model):
    class Kind(models.TextChoices):
        PRACTICE = "practice", _("练习")
        GRADED = "graded", pgettext_lazy("quiz kind", "计分测验")
        SELFTEST = "selftest", _("互动自测")

    class Grading(models.TextChoices):
        BEST = "best", _("最高分")
        LAST = "last", _("最后一次")
        FIRST = "first", _("第一次")
        AVERAGE = "average", _("平均分")

    class Partial(models.TextChoices):
        ALL_OR_NOTHING = "all_or_nothing", _("全对才得分")
        NET_CORRECT = "net_correct", _("净正确（不低于 0）")
        COVERAGE = "coverage", _("覆盖率")
        EACH_ANSWER = "each_answer", _("每个选项计分")

    title = models.CharField(_("名称"), max_length=200)
    title_en = models.CharField(
        _("英文名称"), max_length=200, blank=True, help_text=_("英文页面显示它；留空则显示名称")
    )
    slug = models.SlugField(
        _("短名"),
        max_length=64,
        unique=True,
        error_messages={
            "unique": _(
                "这个短名已被另一个测验使用。短名是测验网址的一部分，不能重复："
                "请换一个，例如在末尾加上年份（quiz-5-2026）。"
            )
        },
    )
    kind = models.CharField(_("类型"), max_length=16, choices=Kind.choices, default=Kind.GRADED)
    lecture = models.PositiveSmallIntegerField(
        _("讲次"),
        null=True,
        blank=True,
        validators=[
            MinValueValidator(LECTURE_MIN, _("讲次至少为 %(limit_value)s。")),
            MaxValueValidator(LECTURE_MAX, _("讲次最多为 %(limit_value)s。")),
        ],
    )
    description = models.TextField(pgettext_lazy("quiz field", "说明"), blank=True)
    description_en = models.TextField(
        _("英文说明"), blank=True, help_text=_("英文页面显示它；留空则显示说明")
    )
    published = models.BooleanField(_("已发布"), default=False)
    opens_at = models.DateTimeField(_("开放时间"), null=True, blank=True)
    closes_at = models.DateTimeField(_("截止时间"), null=True, blank=True)
    late_until = models.DateTimeField(
        _("迟交截止"), null=True, blank=True, help_text=_("截止后到此时间仍可提交，按迟交扣分")
    )
    late_penalty_percent = models.DecimalField(
        _("迟交扣分（%）"),
        max_digits=5,
        decimal_places=2,
        default=Decimal("0"),
        help_text=_(
            "创建成绩项时写入成绩册的迟交政策：迟交任意天数扣此百分比；之后由成绩册决定（可在成绩册中修改）"
        ),
        validators=[
            MinValueValidator(0, _("迟交扣分不能小于 %(limit_value)s%%。")),
            MaxValueValidator(LATE_PENALTY_MAX_PERCENT, _("迟交扣分不能超过 %(limit_value)s%%。")),
        ],
    )
    time_limit_minutes = models.PositiveIntegerField(
        _("限时（分钟）"),
        null=True,
        blank=True,
        help_text=_("由服务器计时，到时自动提交"),
        validators=[
            MinValueValidator(1, _("限时至少 %(limit_value)s 分钟；不限时请留空。")),
            MaxValueValidator(TIME_LIMIT_MAX_MINUTES, _("限时最多 %(limit_value)s 分钟。")),
        ],
    )
    # 0 read as "no limit" (services test `if quiz.max_attempts`), the opposite of what a TA who
    # typed it meant; empty is the way to say no limit.
    max_attempts = models.PositiveIntegerField(
        _("最多作答次数"),
        null=True,
        blank=True,
        help_text=_("留空表示不限"),
        validators=[MinValueValidator(1, _("最多作答次数至少为 1；不限次数请留空。"))],
    )
    grading_method = models.CharField(
        _("成绩汇总方式"),
        max_length=16,
        choices=Grading.choices,
        default=Grading.BEST,
        help_text=GRADING_HELP,
    )
    partial_credit = models.CharField(
        _("多选题部分得分"),
        max_length=16,
        choices=Partial.choices,
        default=Partial.ALL_OR_NOTHING,
        help_text=PARTIAL_HELP,
    )
    shuffle_questions = models.BooleanField(_("打乱题目顺序"), default=False)
    shuffle_choices = models.BooleanField(
        _("打乱选项顺序"),
        default=True,
        help_text=_("每次作答按学生与作答次数固定的种子打乱；刷新后顺序不变"),
    )
    # Likewise 0 drew the whole pool.
    draw_count = models.PositiveIntegerField(
        _("从题池抽题数"),
        null=True,
        blank=True,
        help_text=_("留空表示使用题池中全部题目"),
        validators=[MinValueValidator(1, _("抽题数至少为 1；使用全部题目请留空。"))],
    )
    grade_max_points = models.DecimalField(
        _("计入成绩册的满分"),
        max_digits=8,
        decimal_places=2,
        default=Decimal("10"),
        validators=[
            MinValueValidator(
                GRADE_MAX_POINTS_MIN, _("计入成绩册的满分至少为 %(limit_value)s 分。")
            ),
            MaxValueValidator(
                GRADE_MAX_POINTS_MAX, _("计入成绩册的满分最多为 %(limit_value)s 分。")
            ),
        ],
    )
    # Review options: what shows (correctness, points, right answer, explanation) x when
    # (during the attempt, right after submitting while the quiz is open, after it closes).
    review_correctness_during = models.BooleanField(_("作答中：对错"), default=False)
    review_points_during = models.BooleanField(_("作答中：得分"), default=False)
    review_right_answer_during = models.BooleanField(_("作答中：正确答案"), default=False)
    review_explanation_during = models.BooleanField(_("作答中：解析"), default=False)
    review_correctness_after = models.BooleanField(_("提交后：对错"), default=True)
    review_points_after = models.BooleanField(_("提交后：得分"), default=True)
    review_right_answer_after = models.BooleanField(_("提交后：正确答案"), default=False)
    review_explanation_after = models.BooleanField(_("提交后：解析"), default=False)
    review_correctness_closed = models.BooleanField(_("截止后：对错"), default=True)
    review_points_closed = models.BooleanField(_("截止后：得分"), default=True)
    review_right_answer_closed = models.BooleanField(_("截止后：正确答案"), default=True)
    review_explanation_closed = models.BooleanField(_("截止后：解析"), default=True)
    questions = models.ManyToManyField(
        Question, through="QuizQuestion", related_name="quizzes", verbose_name=_("题目")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("创建时间"))

    objects = QuizQuerySet.as_manager()

    class Meta:
        ordering = ("kind", "lecture", "title")
        verbose_name = pgettext_lazy("model name", "测验")
        verbose_name_plural = pgettext_lazy("model name, plural", "测验")
        permissions = [("publish_quiz", _("可以发布或撤回测验"))]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(late_penalty_percent__gte=0, late_penalty_percent__lte=100),
                name="quiz_late_penalty_0_100",
            ),
        ]

    def __str__(self) -> str:
        return self.shown_title

    def clean(self) -> None:
        super().clean()
        errors: dict[str, str] = {}
        if self.slug in RESERVED_SLUGS:
            errors["slug"] = _("“%(slug)s” 是网站自己页面的地址，请换一个短名。") % {
                "slug": self.slug
            }
        errors |= self._window_errors()
        if errors:
            raise ValidationError(errors)

    def _window_errors(self) -> dict[str, str]:
        """The quiz's times in order: it opens, then closes, then the late window ends. Each
        later time must be after the one before it that is set (a late deadline with no close
        time still comes after the opening)."""
        errors: dict[str, str] = {}
        if self.opens_at and self.closes_at and self.closes_at <= self.opens_at:
            errors["closes_at"] = _("截止时间必须晚于开放时间。")
        if not self.late_until:
            return errors
        if self.closes_at and self.late_until <= self.closes_at:
            errors["late_until"] = _("迟交截止必须晚于截止时间。")
        elif not self.closes_at and self.opens_at and self.late_until <= self.opens_at:
            errors["late_until"] = _("迟交截止必须晚于开放时间。")
        return errors

    @property
    def is_graded(self) -> bool:
        return self.kind == self.Kind.GRADED

    @property
    def shown_title(self) -> str:
        """The title in the page's language: the English one on English pages, when there is one."""
        return in_page_language(self.title, self.title_en)

    @property
    def shown_description(self) -> str:
        return in_page_language(self.description, self.description_en)

    @property
    def gradebook_key(self) -> str:
        return f"quiz:{self.pk}"

    def review_flags(self, when: str) -> dict[str, bool]:
        """{"correctness": …, "points": …, "right_answer": …, "explanation": …} for a moment."""
        whats = ("correctness", "points", "right_answer", "explanation")
        return {what: getattr(self, f"review_{what}_{when}") for what in whats}


class QuizQuestion(models.Model):
    quiz = models.ForeignKey(
        Quiz,
        on_delete=models.CASCADE,
        related_name="pool",
        verbose_name=pgettext_lazy("model name", "测验"),
    )
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="+", verbose_name=_("题目")
    )
    order = models.PositiveIntegerField(_("顺序"), default=0)
    points = models.DecimalField(
        _("本测验中的分值"),
        max_digits=6,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("留空则用题目自身的分值"),
    )

    class Meta:
        ordering = ("quiz", "order", "pk")
        verbose_name = pgettext_lazy("model name", "选入的题目")
        verbose_name_plural = pgettext_lazy("model name, plural", "选入的题目")
        constraints = [
            models.UniqueConstraint(fields=["quiz", "question"], name="quizzes_pool_uniq")
        ]

    def __str__(self) -> str:
        return f"{self.quiz_id}/{self.question_id}"


class QuizRule(models.Model):
    """ "Draw N questions from the bank matching these filters" — drawn per attempt (seeded), so
    students get different questions of the same kind; blank filters match everything."""

    quiz = models.ForeignKey(
        Quiz,
        on_delete=models.CASCADE,
        related_name="rules",
        verbose_name=pgettext_lazy("model name", "测验"),
    )
    lecture = models.PositiveSmallIntegerField(_("讲次"), null=True, blank=True)
    section = models.CharField(_("章节锚点"), max_length=32, blank=True)
    qtype = models.CharField(_("题型"), max_length=16, choices=Question.Type.choices, blank=True)
    tag = models.CharField(_("考查层次"), max_length=16, choices=Question.Tag.choices, blank=True)
    count = models.PositiveSmallIntegerField(_("抽题数"))
    points = models.DecimalField(_("每题分值"), max_digits=6, decimal_places=2)
    order = models.PositiveIntegerField(_("顺序"), default=0)

    class Meta:
        ordering = ("quiz", "order", "pk")
        verbose_name = pgettext_lazy("model name", "抽题规则")
        verbose_name_plural = pgettext_lazy("model name, plural", "抽题规则")
        constraints = [
            models.CheckConstraint(condition=models.Q(count__gte=1), name="quizrule_count_pos"),
            models.CheckConstraint(condition=models.Q(points__gt=0), name="quizrule_points_pos"),
        ]

    def __str__(self) -> str:
        return f"{self.quiz_id}: {self.count} × {self.lecture}/{self.qtype}"

    def matching(self, exclude: set[int] | None = None) -> models.QuerySet[Question]:
        """Bank questions this rule may draw, in a stable order (the seed picks among them)."""
        found = Question.objects.all()
        for name in ("lecture", "section", "qtype", "tag"):
            value = getattr(self, name)
            if value not in (None, ""):
                found = found.filter(**{name: value})
        if exclude:
            found = found.exclude(pk__in=exclude)
        return found.order_by("lecture", "bank_id")


class AttemptQuerySet(OwnedQuerySet):
    """Staff see every attempt; a student sees only their own."""


class Attempt(models.Model):
    class State(models.TextChoices):
        IN_PROGRESS = "in_progress", _("作答中")
        SUBMITTED = "submitted", _("已提交")

    quiz = models.ForeignKey(
        Quiz,
        on_delete=models.CASCADE,
        related_name="attempts",
        verbose_name=pgettext_lazy("model name", "测验"),
    )
    student = student_field(on_delete=models.CASCADE, related_name="quiz_attempts")
    number = models.PositiveIntegerField(verbose_name=_("第几次"))
    seed = models.BigIntegerField(
        help_text=_("参数化题目与打乱顺序的种子"), verbose_name=_("随机种子")
    )
    question_ids = models.JSONField(
        default=list, help_text=_("本次作答抽到的题目（按显示顺序）"), verbose_name=_("题目")
    )
    # {question id: points} fixed when the attempt starts (picked questions' points in the quiz,
    # or the drawing rule's); a question missing here is worth its bank points.
    points_map = models.JSONField(default=dict, blank=True, verbose_name=_("每题分值"))
    state = models.CharField(
        max_length=16, choices=State.choices, default=State.IN_PROGRESS, verbose_name=_("状态")
    )
    started_at = models.DateTimeField(verbose_name=_("开始时间"))
    deadline = models.DateTimeField(
        null=True, blank=True, help_text=_("服务器端的作答截止时刻"), verbose_name=_("截止时刻")
    )
    submitted_at = models.DateTimeField(null=True, blank=True, verbose_name=_("提交时间"))
    auto_submitted = models.BooleanField(default=False, verbose_name=_("自动提交"))
    raw_score = models.DecimalField(
        max_digits=8, decimal_places=3, null=True, blank=True, verbose_name=_("原始分")
    )
    raw_max = models.DecimalField(
        max_digits=8, decimal_places=3, null=True, blank=True, verbose_name=_("原始满分")
    )
    score = models.DecimalField(
        _("得分"),
        max_digits=8,
        decimal_places=2,
        null=True,
        blank=True,
        help_text=_("换算到测验计入成绩册的满分；迟交扣分由成绩册按它的规则另算，不在这里扣"),
    )

    objects = AttemptQuerySet.as_manager()

    class Meta:
        ordering = ("quiz", "student", "number")
        verbose_name = pgettext_lazy("model name", "作答")
        verbose_name_plural = pgettext_lazy("model name, plural", "作答")
        constraints = [
            models.UniqueConstraint(
                fields=["quiz", "student", "number"], name="quizzes_attempt_number_uniq"
            ),
            models.UniqueConstraint(
                fields=["quiz", "student"],
                condition=models.Q(state="in_progress"),
                name="quizzes_one_open_attempt",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.quiz} · {self.student} #{self.number}"

    @property
    def is_open(self) -> bool:
        return self.state == self.State.IN_PROGRESS


class Answer(models.Model):
    attempt = models.ForeignKey(
        Attempt, on_delete=models.CASCADE, related_name="answers", verbose_name=_("作答")
    )
    question = models.ForeignKey(
        Question, on_delete=models.CASCADE, related_name="+", verbose_name=_("题目")
    )
    selected = models.JSONField(
        _("所选选项"), default=list, blank=True, help_text=_("选中的选项键")
    )
    value = models.CharField(
        _("输入值"), max_length=64, blank=True, help_text=_("数值题 / 判断题的原始输入")
    )
    saved_at = models.DateTimeField(_("保存时间"))
    fraction = models.DecimalField(
        _("得分比例"), max_digits=6, decimal_places=4, null=True, blank=True
    )
    points = models.DecimalField(_("得分"), max_digits=8, decimal_places=3, null=True, blank=True)

    class Meta:
        ordering = ("attempt", "pk")
        verbose_name = pgettext_lazy("model name", "答案")
        verbose_name_plural = pgettext_lazy("model name, plural", "答案")
        constraints = [
            models.UniqueConstraint(fields=["attempt", "question"], name="quizzes_answer_uniq")
        ]

    def __str__(self) -> str:
        return f"{self.attempt_id}/{self.question_id}"
