"""A flagged or rejected result's two answers: the student's one response and the TA's verdict.

Both belong to one grading round of the submission (its result document of that round): a re-run
grades again, and a new result is a new case, judged afresh. Score changes are not kept here; a
restore goes through the lab's per-submission override into the gradebook (and its audit log).
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from accounts.fields import staff_field, student_field
from gradinglab.models import Submission

RESPONSE_MAX_CHARS = 2000  # characters; a paragraph or two, shown in full on the TA's queue
REASON_MAX_CHARS = 500  # characters; as the lab's and the gradebook's override reasons


class FlagResponse(models.Model):
    """The student's answer to the evidence: one per submission and round."""

    submission = models.ForeignKey(
        Submission,
        on_delete=models.CASCADE,
        related_name="flag_responses",
        verbose_name=pgettext_lazy("noun", "提交"),
    )
    round = models.PositiveIntegerField(_("轮次"))
    student = student_field(on_delete=models.PROTECT)
    text = models.TextField(_("回应"), max_length=RESPONSE_MAX_CHARS)
    created_at = models.DateTimeField(_("回应时间"))

    class Meta:
        ordering = ("-created_at",)
        verbose_name = pgettext_lazy("model name", "学生的回应")
        verbose_name_plural = pgettext_lazy("model name, plural", "学生的回应")
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "round"], name="flagreview_one_response_per_round"
            )
        ]

    def __str__(self) -> str:
        return str(_("提交 #%(n)s 的回应") % {"n": self.submission_id})


class FlagVerdict(models.Model):
    """The TA's decision on a flagged or rejected result: one per submission and round."""

    class Decision(models.TextChoices):
        RESTORE = "restore", _("恢复分数")
        KEEP = "keep", _("维持原判")
        HIDE = "hide", _("不上排行榜")

    submission = models.ForeignKey(
        Submission,
        on_delete=models.CASCADE,
        related_name="flag_verdicts",
        verbose_name=pgettext_lazy("noun", "提交"),
    )
    round = models.PositiveIntegerField(_("轮次"))
    decision = models.CharField(
        pgettext_lazy("flag verdict", "结论"), max_length=16, choices=Decision.choices
    )
    # The points a restore gave this submission (through the lab's override); None otherwise.
    points = models.DecimalField(
        _("恢复的分数"), max_digits=7, decimal_places=2, null=True, blank=True
    )
    reason = models.CharField(_("理由"), max_length=REASON_MAX_CHARS)
    actor = staff_field(_("助教"), on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(_("时间"))

    class Meta:
        ordering = ("-at",)
        verbose_name = pgettext_lazy("model name", "助教的结论")
        verbose_name_plural = pgettext_lazy("model name, plural", "助教的结论")
        constraints = [
            models.UniqueConstraint(
                fields=["submission", "round"], name="flagreview_one_verdict_per_round"
            )
        ]

    def __str__(self) -> str:
        return f"#{self.submission_id} {self.get_decision_display()}"
