"""Similarity runs over one assignment's submissions, the pairs they found, TAs' decisions on
them, and the fingerprint archive of earlier terms (hashes only: no code, no names).

Students never reach any of these: every page is staff-only, and no student page reads them.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.fields import staff_field


class SimilarityRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("排队中")
        RUNNING = "running", _("进行中")
        DONE = "done", _("已完成")
        FAILED = "failed", _("失败")

    class Trigger(models.TextChoices):
        MANUAL = "manual", _("手动")
        DEADLINE = "deadline", _("截止后自动")

    assignment = models.ForeignKey(
        "gradinglab.Assignment",
        on_delete=models.CASCADE,
        related_name="similarity_runs",
        verbose_name=_("实验作业"),
    )
    status = models.CharField(
        _("状态"), max_length=16, choices=Status.choices, default=Status.QUEUED
    )
    trigger = models.CharField(_("触发方式"), max_length=16, choices=Trigger.choices)
    requested_by = staff_field(
        _("发起人"), on_delete=models.SET_NULL, related_name="+", optional=True
    )
    created_at = models.DateTimeField(_("创建时间"))
    finished_at = models.DateTimeField(_("完成时间"), null=True, blank=True)
    submissions_compared = models.PositiveIntegerField(_("比较的提交数"), default=0)
    archive_compared = models.PositiveIntegerField(_("比较的往届指纹数"), default=0)
    # The fingerprints held by so many students that they were ignored (the problem's idiom); the
    # review page leaves them unhighlighted, as the ranking did.
    common_hashes = models.JSONField(_("忽略的常见指纹"), default=list, blank=True)
    error = models.TextField(pgettext_lazy("failure", "错误"), blank=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        verbose_name = pgettext_lazy("model name", "相似度检查")
        verbose_name_plural = pgettext_lazy("model name, plural", "相似度检查")

    def __str__(self) -> str:
        return f"#{self.pk} {self.assignment} {self.get_status_display()}"


class SimilarityPair(models.Model):
    """Two submissions of different students (or one and an archived entry) a run ranked."""

    run = models.ForeignKey(
        SimilarityRun, on_delete=models.CASCADE, related_name="pairs", verbose_name=_("检查")
    )
    rank = models.PositiveIntegerField(_("名次"))
    submission_a = models.ForeignKey(
        "gradinglab.Submission",
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("提交 A"),
    )
    submission_b = models.ForeignKey(
        "gradinglab.Submission",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("提交 B"),
    )
    archived = models.ForeignKey(
        "ArchivedFingerprint",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("往届指纹"),
    )
    shared = models.PositiveIntegerField(_("共同指纹数"))
    fraction = models.FloatField(_("相同比例"))
    cluster = models.PositiveIntegerField(_("簇"), null=True, blank=True)

    class Meta:
        ordering = ("run", "rank")
        verbose_name = pgettext_lazy("model name", "相似提交对")
        verbose_name_plural = pgettext_lazy("model name, plural", "相似提交对")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(submission_b__isnull=False, archived__isnull=True)
                | models.Q(submission_b__isnull=True, archived__isnull=False),
                name="similarity_pair_one_other_side",
            )
        ]

    def __str__(self) -> str:
        other = f"#{self.submission_b_id}" if self.submission_b_id else f"@{self.archived_id}"
        return f"#{self.submission_a_id} ~ {other} {self.fraction:.0%}"


class SimilarityDecision(models.Model):
    """A TA's decision on a pair (append-only; the latest counts). Also in the gradebook audit."""

    class Decision(models.TextChoices):
        NO_ISSUE = "no_issue", _("无问题")
        DISCUSS = "discuss", _("需约谈")
        REFER = "refer", _("上报")

    pair = models.ForeignKey(
        SimilarityPair, on_delete=models.CASCADE, related_name="decisions", verbose_name=_("提交对")
    )
    decision = models.CharField(_("结论"), max_length=16, choices=Decision.choices)
    note = models.TextField(_("备注"), blank=True)
    decided_by = staff_field(_("助教"), on_delete=models.PROTECT, related_name="+")
    decided_at = models.DateTimeField(_("时间"))

    class Meta:
        ordering = ("-decided_at", "-pk")
        verbose_name = pgettext_lazy("model name", "相似度结论")
        verbose_name_plural = pgettext_lazy("model name, plural", "相似度结论")

    def __str__(self) -> str:
        return f"{self.pair}: {self.get_decision_display()}"


class ArchivedFingerprint(models.Model):
    """One earlier term's submission, as its fingerprint hashes only (`ref` is random)."""

    term = models.CharField(_("学期"), max_length=40)
    problem_slug = models.SlugField(_("题目短名"), max_length=80)
    backend = models.CharField(_("后端"), max_length=16)
    ref = models.CharField(_("匿名编号"), max_length=32)
    hashes = models.JSONField(_("指纹"))
    imported_at = models.DateTimeField(_("导入时间"))

    class Meta:
        ordering = ("problem_slug", "term", "ref")
        verbose_name = pgettext_lazy("model name", "往届指纹")
        verbose_name_plural = pgettext_lazy("model name, plural", "往届指纹")
        constraints = [
            models.UniqueConstraint(
                fields=["term", "problem_slug", "ref"], name="archived_fingerprint_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.term} · {self.problem_slug} · {self.ref}"


class FingerprintCache(models.Model):
    """A source's fingerprints, computed once (tokenising dominates a run): keyed by the source's
    hash, the backend and the algorithm, so an edited source or a new algorithm never reuses one."""

    sha256 = models.CharField(_("源代码的 SHA-256"), max_length=64)
    backend = models.CharField(_("后端"), max_length=16)
    algorithm = models.CharField(_("算法"), max_length=40)
    hashes = models.JSONField(_("指纹"))

    class Meta:
        verbose_name = pgettext_lazy("model name", "指纹缓存")
        verbose_name_plural = pgettext_lazy("model name, plural", "指纹缓存")
        constraints = [
            models.UniqueConstraint(
                fields=["sha256", "backend", "algorithm"], name="fingerprint_cache_unique"
            )
        ]

    def __str__(self) -> str:
        return f"{self.backend}:{self.sha256[:12]}"
