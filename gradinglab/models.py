"""Lab data: problems (synced from packages on disk), assignments, submissions, grading jobs, workers.

A Submission is what a student handed in; each dispatch of it to a worker is a GradingJob with its own
secret token. The first result posted for the submission's current job is stored once (SubmissionResult
is unique per submission and round), so a re-delivered job or a double post never scores twice.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import datetime, timedelta
from decimal import Decimal
from urllib.parse import urlencode

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.access import AccessQuerySet, OwnedQuerySet
from accounts.fields import staff_field, student_field
from accounts.language import page_lang
from gradebook.models import GradeItem
from gradinglab import conf
from gradinglab.worker import queues
from gradinglab.worker.queues import queue_for


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def new_token(prefix: str) -> str:
    return prefix + secrets.token_urlsafe(32)


class Backend(models.TextChoices):
    """The languages a kernel is written in (the runner's BACKENDS); names, not translated."""

    TRITON = "triton", "Triton"
    CUDA = "cuda", "CUDA"


class ProblemQuerySet(AccessQuerySet):
    def for_member(self, user) -> ProblemQuerySet:
        """Staff see every problem; a student sees problems of published assignments."""
        return self.filter(assignments__published=True).distinct()


class Problem(models.Model):
    class Bound(models.TextChoices):
        """What limits the problem's kernel (the package's `bound`): its roofline fraction is of
        the device's memory bandwidth or of its compute peak (runner/timing_check)."""

        MEMORY = "memory", _("访存受限")
        COMPUTE = "compute", _("计算受限")

    slug = models.SlugField(unique=True, max_length=80, verbose_name=_("短名"))
    title_zh = models.CharField(_("标题"), max_length=200)
    title_en = models.CharField(_("英文标题"), max_length=200, blank=True)
    statement_zh_html = models.TextField(blank=True, verbose_name=_("中文题面（HTML）"))
    statement_en_html = models.TextField(blank=True, verbose_name=_("英文题面（HTML）"))
    sections = models.JSONField(default=list, blank=True, verbose_name=_("练习的小节"))
    backends = models.JSONField(default=list, verbose_name=_("后端"))
    entry_point = models.JSONField(default=dict, verbose_name=_("入口函数"))
    dtypes = models.JSONField(default=list, verbose_name=_("数据类型"))
    tolerances = models.JSONField(default=dict, verbose_name=_("误差容限"))
    tests = models.JSONField(default=list, verbose_name=_("公开测试"))
    benchmarks = models.JSONField(default=list, verbose_name=_("计时规模"))
    scoring = models.JSONField(default=dict, verbose_name=_("计分规则"))
    bound = models.CharField(
        max_length=16, blank=True, choices=Bound.choices, verbose_name=_("瓶颈类型")
    )
    content_sha256 = models.CharField(max_length=64, blank=True, verbose_name=_("内容哈希"))
    synced_at = models.DateTimeField(null=True, blank=True, verbose_name=_("同步时间"))
    active = models.BooleanField(default=True, help_text=_("包仍在磁盘上"), verbose_name=_("在用"))
    # The publishing gate: the package hash whose solutions and exploit suite last got every
    # expected verdict (`check_problem`). An assignment can be newly published only while it
    # equals content_sha256 (Assignment.clean); one already published stays published when a
    # sync changes its package, so `sync_problems` lists the packages to check again.
    checked_sha256 = models.CharField(max_length=64, blank=True, verbose_name=_("已检查的内容哈希"))
    checked_at = models.DateTimeField(null=True, blank=True, verbose_name=_("检查时间"))
    check_report = models.JSONField(default=dict, blank=True, verbose_name=_("检查报告"))

    objects = ProblemQuerySet.as_manager()

    class Meta:
        ordering = ("slug",)
        verbose_name = pgettext_lazy("model name", "实验题目")
        verbose_name_plural = pgettext_lazy("model name, plural", "实验题目")

    def __str__(self) -> str:
        return self.title_for(page_lang())  # the admin's lists and breadcrumbs

    @property
    def publishable(self) -> bool:
        return bool(self.content_sha256) and self.checked_sha256 == self.content_sha256

    def title_for(self, lang: str) -> str:
        return self.title_en if lang == "en" and self.title_en else self.title_zh

    def statement_for(self, lang: str) -> str:
        if lang == "en" and self.statement_en_html:
            return self.statement_en_html
        return self.statement_zh_html


def gpu_kind_choices() -> list[tuple[str, str]]:
    """CPU only, or one of the configured GPU kinds (PDC_GPU_KINDS): a queue some worker consumes."""
    # Labelled, not the bare queue name: "rtx4090" alone reads as an untranslated word.
    gpu = [(kind, gpu_kind_label(kind)) for kind in settings.GPU_KINDS]
    return [("", _("仅 CPU（正确性）")), *gpu]


def gpu_kind_label(kind: str) -> str:
    """ "GPU H100": the product's own name, the same in every language (the queue's kind is lower
    case, "h100"), and no brackets, as it often stands inside some."""
    return f"GPU {kind.upper()}"


def queue_label(name: str) -> str:
    """How the status page names a queue: its work, and for grading its hardware."""
    if name == queues.DEFAULT_QUEUE:
        return _("后台任务")
    kind = queues.kind_of(name)
    return _("评测：%(hw)s") % {"hw": worker_kind_label(kind)} if kind else name


def worker_kind_label(kind: str) -> str:
    """How pages name a worker's kind: "CPU", or its GPU kind as the assignment form names it."""
    return "CPU" if kind == "cpu" else gpu_kind_label(kind)


_PERCENT = [MinValueValidator(0), MaxValueValidator(100)]


class AssignmentQuerySet(AccessQuerySet):
    def for_member(self, user) -> AssignmentQuerySet:
        """Staff see every assignment; a student sees published ones."""
        return self.filter(published=True)

    def published_unchecked(self) -> AssignmentQuerySet:
        """Published, while their problem is not `publishable` (the same rule, as a query): the
        package changed after its last full check, or was never checked. Students' work is
        graded against a package whose exploit suite has not run on it."""
        checked = models.Q(problem__content_sha256__gt="") & models.Q(
            problem__checked_sha256=models.F("problem__content_sha256")
        )
        return self.filter(published=True).exclude(checked)


class Assignment(models.Model):
    """A problem published to students with points, due date, late window and grading hardware."""

    problem = models.ForeignKey(
        Problem,
        on_delete=models.PROTECT,
        related_name="assignments",
        verbose_name=pgettext_lazy("lab problem", "题目"),
    )
    title = models.CharField(_("名称"), max_length=200, blank=True)
    points = models.DecimalField(
        _("分值"),
        max_digits=7,
        decimal_places=2,
        default=Decimal("10"),
        # The gradebook item's maximum: a grade out of 0 points means nothing.
        validators=[MinValueValidator(Decimal("0.01"))],
    )
    published = models.BooleanField(_("已发布"), default=False)
    opens_at = models.DateTimeField(_("开放时间"), null=True, blank=True)
    due_at = models.DateTimeField(_("截止时间"), null=True, blank=True)
    late_until = models.DateTimeField(
        _("迟交截止"),
        null=True,
        blank=True,
        help_text=_(
            "截止后仍接受提交直到此时（扣分规则由成绩册的迟交政策决定）；空 = 截止后不接受"
        ),
    )
    # Late policy as data, mirrored onto the gradebook item (the gradebook computes the penalty),
    # so it takes the gradebook's own choices.
    late_policy = models.CharField(
        _("迟交政策"),
        max_length=16,
        choices=GradeItem.LatePolicy.choices,
        default=GradeItem.LatePolicy.PENALTY,
    )
    late_penalty_per_day = models.DecimalField(
        _("每天扣分 %"), max_digits=5, decimal_places=2, default=Decimal("10"), validators=_PERCENT
    )
    late_penalty_cap = models.DecimalField(
        _("扣分上限 %"), max_digits=5, decimal_places=2, default=Decimal("100"), validators=_PERCENT
    )
    gpu_kind = models.CharField(
        _("评测 GPU 型号"),
        max_length=32,
        blank=True,
        choices=gpu_kind_choices,
        help_text=_("空 = 只在 CPU 路径评测（正确性）；否则送到 grade-gpu-<型号> 队列"),
    )
    rate_limit_count = models.PositiveIntegerField(
        _("窗口内最多提交次数"), default=10, validators=[MinValueValidator(1)]
    )
    rate_limit_minutes = models.PositiveIntegerField(
        _("限流窗口（分钟）"), default=10, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("创建时间"))

    objects = AssignmentQuerySet.as_manager()

    class Meta:
        ordering = ("due_at", "pk")
        verbose_name = pgettext_lazy("model name", "实验作业")
        verbose_name_plural = pgettext_lazy("model name, plural", "实验作业")
        permissions = [("rescore_assignment", _("可以按现行规则重新计算实验作业的已存结果"))]
        # The validators above guard the forms; these guard every other writer.
        constraints = [
            models.CheckConstraint(condition=models.Q(points__gt=0), name="assignment_points_gt_0"),
            models.CheckConstraint(
                condition=models.Q(late_penalty_per_day__gte=0, late_penalty_per_day__lte=100),
                name="assignment_penalty_per_day_percent",
            ),
            models.CheckConstraint(
                condition=models.Q(late_penalty_cap__gte=0, late_penalty_cap__lte=100),
                name="assignment_penalty_cap_percent",
            ),
            models.CheckConstraint(
                condition=models.Q(rate_limit_count__gte=1, rate_limit_minutes__gte=1),
                name="assignment_rate_limit_gte_1",
            ),
        ]

    def __str__(self) -> str:
        return self.title or self.problem.title_for(page_lang())

    def get_absolute_url(self) -> str:
        """The problem page of this assignment: it names the assignment, because one problem can
        be set more than once and the bare problem page shows the latest due."""
        url = reverse("gradinglab:problem", args=[self.problem.slug])
        return f"{url}?{urlencode({'assignment': self.pk})}"

    def late_until_for(self, own_due: datetime | None) -> datetime | None:
        """The end of the late window for a student whose due date is `own_due`: an extension
        staff granted moves the whole window, late days included (gradinglab.selectors.
        personal_dues gives `own_due`). The submit check and the pages both read it here."""
        if not (self.late_until and self.due_at and own_due):
            return self.late_until
        return self.late_until + max(own_due - self.due_at, timedelta(0))

    def clean(self) -> None:
        """The publishing gate (issue 11): an assignment is newly published only while its
        package has passed `check_problem` (solutions and exploit suite) at its current content.
        Unpublishing is never refused, and a published assignment is not withdrawn when its
        package changes later (students keep submitting; staff re-run the check)."""
        super().clean()
        if not self.published or self.problem_id is None:
            return
        was_published = (
            self.pk is not None and Assignment.objects.filter(pk=self.pk, published=True).exists()
        )
        if not was_published and not self.problem.publishable:
            raise ValidationError(
                {
                    "published": _(
                        "题目包尚未通过发布检查（解答与作弊样例的判定）：先运行 "
                        "manage.py check_problem %(slug)s，或在题目列表中执行检查"
                    )
                    % {"slug": self.problem.slug}
                }
            )

    def name_for(self, lang: str) -> str:
        """The name where it stands alone (a gradebook column, the dashboard): the title, else the
        problem's; an untitled GPU assignment adds its GPU kind, because one problem can be set both
        on the CPU path and on a GPU. A title is staff's own words and stays as they wrote it."""
        if self.title:
            return self.title
        name = self.problem.title_for(lang)
        if not self.gpu_kind:
            return name
        return f"{name} ({self.gpu_kind})" if lang == "en" else f"{name}（{self.gpu_kind}）"

    @property
    def grade_item_key(self) -> str:
        return f"lab:{self.pk}"

    @property
    def queue_name(self) -> str:
        return queue_for(self.gpu_kind)

    @property
    def hardware(self) -> str:
        return self.gpu_kind or "cpu"


class SubmissionQuerySet(OwnedQuerySet):
    """The one access check (visible_to): staff see all, a student only their own."""


def effective_score_expr() -> Coalesce:
    """Submission.effective_score in a query: a TA's override, else the automatic score."""
    return Coalesce("score_override", "score")


class Submission(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("评测中")
        ACCEPTED = "accepted", _("通过")
        WRONG_ANSWER = "wrong_answer", _("答案错误")
        COMPILE_ERROR = "compile_error", _("编译错误")
        RUNTIME_ERROR = "runtime_error", _("运行错误")
        TIMEOUT = "timeout", _("超时")
        MEMORY_LIMIT = "memory_limit", _("超出内存")
        REJECTED = "rejected", _("被拒绝")
        NEEDS_GPU = "needs_gpu", _("需要 GPU")
        INFRASTRUCTURE_ERROR = "infrastructure_error", _("评测系统错误")

    class FlaggedBy(models.TextChoices):
        GRADER = "grader", _("评测系统")
        STAFF = "staff", _("助教")

    PENDING = (Status.QUEUED, Status.RUNNING)

    assignment = models.ForeignKey(
        Assignment, on_delete=models.PROTECT, related_name="submissions", verbose_name=_("实验作业")
    )
    student = student_field(on_delete=models.PROTECT, related_name="lab_submissions")
    backend = models.CharField(max_length=16, choices=Backend.choices, verbose_name=_("后端"))
    source = models.TextField(verbose_name=_("源码"))
    sha256 = models.CharField(max_length=64, verbose_name=_("源码哈希"))
    via = models.CharField(max_length=8, default="web", verbose_name=_("提交方式"))  # web | cli
    created_at = models.DateTimeField(db_index=True, verbose_name=_("提交时间"))
    late = models.BooleanField(default=False, verbose_name=_("迟交"))
    status = models.CharField(
        max_length=24, choices=Status.choices, default=Status.QUEUED, verbose_name=_("状态")
    )
    phase = models.CharField(max_length=16, blank=True, verbose_name=_("阶段"))
    queue = models.CharField(max_length=64, verbose_name=_("队列"))
    round = models.PositiveIntegerField(
        default=1, help_text=_("第几轮评测（重测加一）"), verbose_name=_("轮次")
    )
    dispatches = models.PositiveIntegerField(
        default=0, help_text=_("本轮已派发次数"), verbose_name=_("派发次数")
    )
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("开始时间"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("完成时间"))
    score = models.DecimalField(
        max_digits=7, decimal_places=2, null=True, blank=True, verbose_name=_("得分")
    )
    # A TA's replacement for this one submission's automatic score (the item is then re-derived
    # from the best submission); an item-wide override lives in the gradebook instead.
    score_override = models.DecimalField(
        _("本次提交的人工改分"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    score_override_reason = models.CharField(_("改分原因"), max_length=500, blank=True)
    counts_as_attempt = models.BooleanField(default=True, verbose_name=_("计入提交次数"))
    median_ms = models.FloatField(null=True, blank=True, verbose_name=_("中位时间 (ms)"))
    speedup = models.FloatField(null=True, blank=True, verbose_name=_("加速比"))
    roofline_fraction = models.FloatField(null=True, blank=True, verbose_name=_("屋顶线比例"))
    device_name = models.CharField(max_length=200, blank=True, verbose_name=_("设备"))
    flagged = models.BooleanField(_("已标记"), default=False)
    flag_reason = models.CharField(_("标记原因"), max_length=300, blank=True)
    # Who set the flag: the reason text cannot tell (a TA may write anything, and an unknown kind
    # of automatic flag must not read as a TA's words). Blank when not flagged.
    flagged_by = models.CharField(
        _("标记者"), max_length=8, choices=FlaggedBy.choices, blank=True, editable=False
    )
    staff_comment = models.TextField(_("助教评语（学生可见）"), blank=True)
    # A "run public tests" request: graded on the CPU path, never scored, never an attempt.
    practice = models.BooleanField(_("仅运行公开测试"), default=False)

    objects = SubmissionQuerySet.as_manager()

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = pgettext_lazy("model name", "提交")
        verbose_name_plural = pgettext_lazy("model name, plural", "提交")
        # Three words, three permissions: re-run = grade again in a sandbox (here); rescore =
        # recompute stored results under the current rule (Assignment); a regrade request is a
        # student's appeal (gradebook.RegradeRequest).
        permissions = [
            ("rerun_submission", _("可以重新运行提交（再评测一次）")),
            ("flag_submission", _("可以标记或取消标记提交")),
            ("override_submission_score", _("可以替换单次提交的分数")),
        ]
        indexes = [models.Index(fields=["assignment", "student", "created_at"])]

    def __str__(self) -> str:
        title = self.assignment.problem.title_for(page_lang())
        return f"#{self.pk} {title} {self.student} {self.get_status_display()}"

    @property
    def effective_score(self):
        """What the submission counts for: a TA's override of it, else its automatic score
        (`effective_score_expr` in a query)."""
        return self.score_override if self.score_override is not None else self.score

    @property
    def is_pending(self) -> bool:
        return self.status in self.PENDING

    @property
    def result(self) -> dict | None:
        latest = self.results.order_by("-round").first()
        return latest.document if latest else None


def _stuck_cuts(now: datetime) -> tuple[datetime, datetime]:
    """Before these a running job is silent and a queued one unclaimed (gradinglab.conf, seconds)."""
    return (
        now - timedelta(seconds=conf.RUNNING_STUCK_S),
        now - timedelta(seconds=conf.QUEUED_STUCK_S),
    )


class GradingJobQuerySet(models.QuerySet):
    def stuck(self, now: datetime) -> GradingJobQuerySet:
        """GradingJob.stuck in SQL, for listing them (the staff desk): one rule, kept in two forms
        side by side, and a test holds them equal (test_stuck_rule)."""
        running_cut, queued_cut = _stuck_cuts(now)
        return self.alias(last_sign=Coalesce("last_seen_at", "started_at")).filter(
            Q(started_at__isnull=True, enqueued_at__lt=queued_cut)
            | Q(started_at__isnull=False, last_sign__lt=running_cut)
        )


class GradingJob(models.Model):
    """One dispatch of a submission. The raw token travels in the job message only."""

    submission = models.ForeignKey(
        Submission,
        on_delete=models.CASCADE,
        related_name="jobs",
        verbose_name=pgettext_lazy("noun", "提交"),
    )
    round = models.PositiveIntegerField(_("轮次"))
    token_hash = models.CharField(_("令牌哈希"), max_length=64, unique=True)
    queue = models.CharField(_("队列"), max_length=64)
    enqueued_at = models.DateTimeField(_("入队时间"))
    started_at = models.DateTimeField(_("开始时间"), null=True, blank=True)
    last_seen_at = models.DateTimeField(_("最近心跳"), null=True, blank=True)
    worker = models.ForeignKey(
        "WorkerNode",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="jobs",
        verbose_name=pgettext_lazy("model name", "评测机"),
    )
    superseded = models.BooleanField(_("已被取代"), default=False)
    finished_at = models.DateTimeField(_("完成时间"), null=True, blank=True)

    objects = GradingJobQuerySet.as_manager()

    class Meta:
        ordering = ("-enqueued_at",)
        verbose_name = pgettext_lazy("model name", "评测任务")
        verbose_name_plural = pgettext_lazy("model name, plural", "评测任务")

    def __str__(self) -> str:
        return str(
            _("提交 #%(s)d 第 %(r)d 轮的评测任务") % {"s": self.submission_id, "r": self.round}
        )

    def stuck(self, now: datetime) -> bool:
        """Started and nothing reported for RUNNING_STUCK_S (its worker is taken for lost), or
        queued and never started for QUEUED_STUCK_S: the reaper re-sends such a job
        (services.reaper) and the staff desk lists it (GradingJobQuerySet.stuck)."""
        running_cut, queued_cut = _stuck_cuts(now)
        if self.started_at is None:
            return self.enqueued_at < queued_cut
        return (self.last_seen_at or self.started_at) < running_cut


class SubmissionResult(models.Model):
    """The stored result document of one grading round (exactly one per round)."""

    submission = models.ForeignKey(
        Submission,
        on_delete=models.CASCADE,
        related_name="results",
        verbose_name=pgettext_lazy("noun", "提交"),
    )
    round = models.PositiveIntegerField(_("轮次"))
    job = models.ForeignKey(
        GradingJob,
        on_delete=models.SET_NULL,
        null=True,
        related_name="+",
        verbose_name=pgettext_lazy("model name", "评测任务"),
    )
    document = models.JSONField(_("结果文档"))
    received_at = models.DateTimeField(_("收到时间"))

    class Meta:
        verbose_name = pgettext_lazy("model name", "评测结果")
        verbose_name_plural = pgettext_lazy("model name, plural", "评测结果")
        constraints = [
            models.UniqueConstraint(fields=["submission", "round"], name="one_result_per_round")
        ]

    def __str__(self) -> str:
        return str(_("提交 #%(s)d 第 %(r)d 轮的结果") % {"s": self.submission_id, "r": self.round})


class WorkerNode(models.Model):
    """A grading host's credential and its last heartbeat. `kind` is "cpu" or a GPU kind."""

    name = models.CharField(
        max_length=100, unique=True, verbose_name=pgettext_lazy("name of a thing", "名称")
    )
    kind = models.CharField(max_length=32, verbose_name=_("类型"))
    # The exact device model (torch.cuda.get_device_name) the web side computes physical floors
    # for; blank = the fastest device of `kind`, so no honest kernel on any variant is refused.
    device = models.CharField(max_length=100, blank=True, verbose_name=_("设备"))
    token_hash = models.CharField(max_length=64, unique=True, verbose_name=_("令牌哈希"))
    active = models.BooleanField(default=True, verbose_name=_("启用"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("创建时间"))
    last_heartbeat_at = models.DateTimeField(null=True, blank=True, verbose_name=_("最近心跳"))
    info = models.JSONField(default=dict, blank=True, verbose_name=_("信息"))

    class Meta:
        ordering = ("kind", "name")
        verbose_name = pgettext_lazy("model name", "评测机")
        verbose_name_plural = pgettext_lazy("model name, plural", "评测机")

    def __str__(self) -> str:
        return f"{self.name} ({worker_kind_label(self.kind)})"


class RegradeRun(models.Model):
    """Audit row of a staff regrade (dry run or applied) with the list of score changes."""

    assignment = models.ForeignKey(
        Assignment, on_delete=models.PROTECT, related_name="regrades", verbose_name=_("实验作业")
    )
    actor = staff_field(_("操作人"), on_delete=models.PROTECT)
    dry_run = models.BooleanField(verbose_name=_("仅预览"))
    changes = models.JSONField(default=list, verbose_name=_("变更"))
    at = models.DateTimeField(verbose_name=_("时间"))

    class Meta:
        ordering = ("-at",)
        verbose_name = pgettext_lazy("model name", "重新计分记录")
        verbose_name_plural = pgettext_lazy("model name, plural", "重新计分记录")

    def __str__(self) -> str:
        kind = _("预览") if self.dry_run else _("已应用")
        return f"#{self.pk} ({kind})"


class Draft(models.Model):
    """The editor's code, autosaved per student, problem and backend on the server, so it follows the
    student to another machine and survives every refused submission."""

    student = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="lab_drafts",
        verbose_name=_("学生"),
    )
    problem = models.ForeignKey(
        Problem,
        on_delete=models.CASCADE,
        related_name="drafts",
        verbose_name=pgettext_lazy("lab problem", "题目"),
    )
    backend = models.CharField(_("后端"), max_length=16, choices=Backend.choices)
    source = models.TextField(_("源代码"))
    updated_at = models.DateTimeField(_("更新时间"))

    class Meta:
        verbose_name = pgettext_lazy("model name", "代码草稿")
        verbose_name_plural = pgettext_lazy("model name, plural", "代码草稿")
        constraints = [
            models.UniqueConstraint(
                fields=["student", "problem", "backend"], name="lab_draft_one_per_backend"
            )
        ]

    def __str__(self) -> str:
        return f"{self.problem.slug} {self.backend} {self.student}"
