"""TA review in the admin: filters, highlighted source, result and logs, comment, regrade, flag,
score override through the gradebook, and regrade-all of an assignment with a dry run first."""

from __future__ import annotations

import json

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.helpers import ACTION_CHECKBOX_NAME
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from gradebook.reasons import Reason
from gradebook.refs import ref_split
from gradebook.selectors import current_grade, item_result
from gradebook.services import LATE_FIELDS, GradeError, grade_item_late_policy_set, grade_override
from gradinglab import dispatch
from gradinglab.access import lab_may
from gradinglab.models import (
    Assignment,
    Problem,
    RegradeRun,
    Submission,
    WorkerNode,
    effective_score_expr,
    worker_kind_label,
)
from gradinglab.services import rescore, results, submissions, workers
from lectures.rendering import highlight_code


def _object_url(model_admin: admin.ModelAdmin, action: str, view, name: str):
    """The admin URL of one object's page `<pk>/<action>/`, behind the admin's login and checks."""
    return path(f"<int:pk>/{action}/", model_admin.admin_site.admin_view(view), name=name)


@admin.register(Problem)
class ProblemAdmin(admin.ModelAdmin):
    """Everything a problem is comes from its package on disk (`sync_problems`). Edited here, its
    scoring or tolerances would change grades with no change to the package, and the publishing
    check (a hash of the package) would still pass: so the admin shows a problem, never edits it."""

    list_display = ("slug", "title_zh", "bound", "active", "publishable_mark", "checked_at")
    search_fields = ("slug", "title_zh", "title_en")
    fields = readonly_fields = (
        "slug",
        "title_zh",
        "title_en",
        "statement_zh",
        "statement_en",
        "sections",
        "backends",
        "entry_point",
        "dtypes",
        "tolerances",
        "tests",
        "benchmarks",
        "scoring",
        "bound",
        "active",
        "content_sha256",
        "synced_at",
        "checked_sha256",
        "checked_at",
        "report",
    )
    actions = ["run_publishing_check"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # problems come from packages (manage.py sync_problems)

    # The statements are the sync's own rendering of the content files, shown as HTML on the lab pages too.
    @admin.display(description=_("中文题面"))
    def statement_zh(self, obj: Problem) -> str:
        return format_html('<div lang="zh-CN">{}</div>', mark_safe(obj.statement_zh_html))

    @admin.display(description=_("英文题面"))
    def statement_en(self, obj: Problem) -> str:
        return format_html('<div lang="en">{}</div>', mark_safe(obj.statement_en_html))

    @admin.display(description=_("可发布"), boolean=True)
    def publishable_mark(self, obj: Problem) -> bool:
        return obj.publishable

    @admin.display(description=_("发布检查结果"))
    def report(self, obj: Problem) -> str:
        rows = (obj.check_report or {}).get("rows") or []
        if not rows:
            return "—"
        return format_html_join(
            "\n",
            "<div>{}: {} → {} ({})</div>",
            ((r["outcome"], r["file"], r["got"], r["expect"]) for r in rows),
        )

    # The check runs every solution and exploit for minutes on the default queue: instructors only
    # (change_problem), not the TAs who may view problems.
    @admin.action(description=_("运行发布检查（解答与作弊样例）"), permissions=["change"])
    def run_publishing_check(self, request: HttpRequest, queryset) -> None:
        slugs = list(queryset.values_list("slug", flat=True))
        for slug in slugs:
            transaction.on_commit(lambda slug=slug: dispatch.send_problem_check(slug))
        self.message_user(
            request,
            ngettext(
                "已排队检查 %(n)d 个题目；完成后刷新本页查看结果。",
                "已排队检查 %(n)d 个题目；完成后刷新本页查看结果。",
                len(slugs),
            )
            % {"n": len(slugs)},
            messages.SUCCESS,
        )


@admin.register(Assignment)
class AssignmentAdmin(admin.ModelAdmin):
    list_display = ("__str__", "problem", "points", "published", "due_at", "late_until", "gpu_kind")
    list_filter = ("published", "gpu_kind")
    change_form_template = "admin/gradinglab/assignment/change_form.html"

    def save_model(self, request: HttpRequest, obj: Assignment, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        item = results.assignment_grade_item(obj)  # the item exists from publication on
        late = {name: getattr(obj, name) for name in LATE_FIELDS if name in form.changed_data}
        if change and late:  # an instructor's deliberate edit; results never copy the policy
            grade_item_late_policy_set(item=item, late=late, actor=request.user)

    def get_urls(self):
        return [
            _object_url(self, "rescore", self.rescore_view, "gradinglab_assignment_rescore")
        ] + super().get_urls()

    def change_view(self, request: HttpRequest, object_id: str, form_url="", extra_context=None):
        # The rescore link only for those who may rescore: a TA followed it to a 403 page.
        extra = {**(extra_context or {}), "can_rescore": lab_may(request.user, "rescore")}
        return super().change_view(request, object_id, form_url, extra)

    def rescore_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Rescore (recompute every stored result under the current rule; nothing is re-run).
        GET: a confirm page listing the changes (reads only). POST: apply, audited, redirect."""
        if not lab_may(request.user, "rescore"):
            raise PermissionDenied
        assignment = get_object_or_404(Assignment, pk=pk)
        if request.method == "POST":
            run, changes = rescore.regrade_apply(
                assignment=assignment, actor=request.user, dry_run=False
            )
            self.message_user(
                request,
                ngettext(
                    "已应用重新计分 #%(run)d：%(n)d 名学生的成绩变更已记入成绩册。",
                    "已应用重新计分 #%(run)d：%(n)d 名学生的成绩变更已记入成绩册。",
                    len(changes),
                )
                % {"run": run.pk, "n": len(changes)},
            )
            return redirect("admin:gradinglab_assignment_change", pk)
        context = {
            **self.admin_site.each_context(request),
            "title": _("重新计分预览：%(a)s") % {"a": assignment},
            "assignment": assignment,
            "changes": rescore.regrade_plan(assignment=assignment),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/gradinglab/regrade_preview.html", context)


class OverrideForm(forms.Form):
    SUBMISSION, ITEM = "submission", "item"
    scope = forms.ChoiceField(
        label=_("改什么"),
        widget=forms.RadioSelect,
        initial=SUBMISSION,
        choices=[
            (SUBMISSION, _("只改这一次提交的分数（成绩项按最好的一次提交重新计算）")),
            (ITEM, _("替换整个成绩项的分数（人工改分，之后的自动评分不会覆盖）")),
        ],
    )
    points = forms.DecimalField(label=_("分数"), max_digits=7, decimal_places=2, min_value=0)
    reason = forms.CharField(
        label=_("理由"), max_length=500, help_text=_("学生会看到这条理由（提交页面与成绩册中）。")
    )


class FlagReasonForm(forms.Form):
    """The bulk flag action's one question: the reason each student reads on their flag's page."""

    reason = forms.CharField(
        label=_("标记原因"),
        max_length=Submission._meta.get_field("flag_reason").max_length,
        help_text=_("学生会在标记页面看到这条原因并可以回应。"),
        widget=forms.Textarea(attrs={"rows": 3}),
    )


class SubmissionAdminForm(forms.ModelForm):
    class Meta:
        model = Submission
        fields = ("flagged", "flag_reason", "staff_comment")

    def clean(self) -> dict:
        data = super().clean()
        if data.get("flagged") and not (data.get("flag_reason") or "").strip():
            # The student reads the reason on the flag's case page and answers it.
            self.add_error("flag_reason", _("标记提交时必须写明原因（学生会看到）。"))
        return data


@admin.register(Submission)
class SubmissionAdmin(admin.ModelAdmin):
    form = SubmissionAdminForm

    class Media:
        # Stylesheets, not style attributes: the CSP allows no inline styles.
        css = {"all": ("lectures/pygments.css", "gradinglab/admin.css")}

    list_display = (
        "pk",
        "student",
        "assignment",
        "backend",
        "status",
        "points_shown",
        "median_ms",
        "late",
        "flagged",
        "created_at",
    )
    list_filter = (
        ("assignment__problem", admin.RelatedOnlyFieldListFilter),
        "status",
        ("student", admin.RelatedOnlyFieldListFilter),
        "assignment__gpu_kind",
        "flagged",
        "backend",
    )
    search_fields = ("student__username", "sha256", "assignment__problem__slug")
    actions = ["rerun_selected", "flag_selected", "unflag_selected"]
    fields = (
        "student",
        "assignment",
        "backend",
        "status",
        "phase",
        "score",
        "late",
        "counts_as_attempt",
        "round",
        "created_at",
        "finished_at",
        "flagged",
        "flag_reason",
        "flagged_by",
        "staff_comment",
        "source_highlighted",
        "result_pretty",
        "score_override",
        "override_link",
    )
    readonly_fields = tuple(
        f for f in fields if f not in ("flagged", "flag_reason", "staff_comment")
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: Submission, form, change: bool) -> None:
        # A flag set or reworded here is the TA's, whoever flagged the submission first.
        if {"flagged", "flag_reason"} & set(form.changed_data):
            obj.flagged_by = Submission.FlaggedBy.STAFF if obj.flagged else ""
            obj.flag_reason = obj.flag_reason.strip() if obj.flagged else ""
        super().save_model(request, obj, form, change)

    def get_urls(self):
        return [
            _object_url(self, "override", self.override_view, "gradinglab_submission_override")
        ] + super().get_urls()

    @admin.display(
        description=Submission._meta.get_field("score").verbose_name,
        ordering=effective_score_expr(),  # sorted as shown: a TA's change, else the automatic
    )
    def points_shown(self, obj: Submission):
        """What the submission counts for: a TA's change of it marked as one, else the automatic
        score (the list showed the automatic score under a change)."""
        if obj.score_override is None:
            return obj.score
        return format_html("{}{}{}{}", obj.score_override, _("（"), _("已人工改分"), _("）"))

    @admin.display(description=_("源码"))
    def source_highlighted(self, obj: Submission) -> str:
        lang = "python" if obj.backend == "triton" else "cuda"
        return mark_safe(highlight_code(obj.source, lang))

    @admin.display(description=_("评测结果与日志"))
    def result_pretty(self, obj: Submission) -> str:
        doc = obj.result
        if doc is None:
            return "—"
        return format_html(
            '<pre class="pdc-result-json">{}</pre>',
            json.dumps(doc, ensure_ascii=False, indent=2),
        )

    # Not named score_override: the model field of that name won, and the link was never shown.
    @admin.display(description=_("改分（记入成绩册）"))
    def override_link(self, obj: Submission) -> str:
        url = reverse("admin:gradinglab_submission_override", args=[obj.pk])
        return format_html('<a href="{}">{}</a>', url, _("改分…"))

    def override_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """One form, two scopes, said in words: this submission's score, or the item's score."""
        sub = get_object_or_404(Submission.objects.select_related("assignment", "student"), pk=pk)
        form = OverrideForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            needed = (
                "override_submission"
                if data["scope"] == OverrideForm.SUBMISSION
                else "override_item"
            )
            if not lab_may(request.user, needed):
                raise PermissionDenied
            try:
                self._apply_override(sub, data, request.user)
            except GradeError as exc:
                form.add_error("points", str(exc))
            else:
                self.message_user(request, _("已改分，并记入成绩册审计记录。"))
                return redirect("admin:gradinglab_submission_change", pk)
        item = results.assignment_grade_item(sub.assignment)
        grade = current_grade(sub.student, item)
        result = item_result(sub.student, item)  # under GRACE maybe not the one posted
        counted_kind, counted_id = ref_split(result.ref)
        context = {
            **self.admin_site.each_context(request),
            "title": _("改分：%(item)s · 提交 #%(n)s") % {"item": str(item), "n": sub.pk},
            "form": form,
            "sub": sub,
            "item": item,
            "grade": grade,
            "result": result,
            "counted_id": counted_id if counted_kind == "submission" else None,
            "effective": results.submission_effective_score(sub),
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/gradinglab/override.html", context)

    @staticmethod
    def _apply_override(sub: Submission, data: dict, actor) -> None:
        if data["scope"] == OverrideForm.SUBMISSION:
            results.submission_score_override(
                submission=sub, points=data["points"], actor=actor, reason=data["reason"]
            )
            return
        grade_override(
            student=sub.student,
            item=results.assignment_grade_item(sub.assignment),
            points=data["points"],
            actor=actor,
            reason=Reason("from_submission", note=data["reason"].strip(), submission=sub.pk),
        )

    @admin.action(description=_("重新运行所选提交（在沙箱中再评测一次）"), permissions=["rerun"])
    def rerun_selected(self, request: HttpRequest, queryset) -> None:
        count = submissions.submissions_rerun(submissions=list(queryset), actor=request.user)
        self.message_user(
            request,
            ngettext("已重新排队 %(n)d 个提交。", "已重新排队 %(n)d 个提交。", count)
            % {"n": count},
            messages.SUCCESS,
        )

    @admin.action(description=_("标记所选提交"), permissions=["flag"])
    def flag_selected(self, request: HttpRequest, queryset) -> HttpResponse | None:
        """First a page that asks the reason (the students read it); then the flags."""
        form = FlagReasonForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"].strip()
            count = submissions.submissions_flag(
                submissions=list(queryset), flagged=True, reason=reason
            )
            self.message_user(
                request,
                ngettext("已标记 %(n)d 个提交。", "已标记 %(n)d 个提交。", count) % {"n": count},
            )
            return None
        context = {
            **self.admin_site.each_context(request),
            "title": _("标记所选提交"),
            "form": form,
            "selected": queryset.select_related("student", "assignment__problem"),
            "action_checkbox_name": ACTION_CHECKBOX_NAME,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/gradinglab/flag_reason.html", context)

    @admin.action(description=_("取消标记所选提交"), permissions=["flag"])
    def unflag_selected(self, request: HttpRequest, queryset) -> None:
        count = submissions.submissions_flag(submissions=list(queryset), flagged=False)
        self.message_user(
            request,
            ngettext("已取消标记 %(n)d 个提交。", "已取消标记 %(n)d 个提交。", count)
            % {"n": count},
        )

    def has_rerun_permission(self, request: HttpRequest) -> bool:
        return lab_may(request.user, "rerun")

    def has_flag_permission(self, request: HttpRequest) -> bool:
        return lab_may(request.user, "flag")


class WorkerNodeForm(forms.ModelForm):
    kind = forms.ChoiceField(label=_("类型"))

    class Meta:
        model = WorkerNode
        fields = ("name", "kind", "device", "active")
        # The model's "名称" is also an assignment's title (one English word per message).
        labels = {"name": _("评测机名称")}

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["kind"].choices = [(k, worker_kind_label(k)) for k in workers.worker_kinds()]

    def clean(self) -> dict:
        data = super().clean()
        try:
            workers.worker_spec_check(kind=data.get("kind", ""), device=data.get("device", ""))
        except workers.WorkerSpecInvalid as exc:
            self.add_error(exc.field, str(exc))
        return data


@admin.register(WorkerNode)
class WorkerNodeAdmin(admin.ModelAdmin):
    """A grading host's credential. Adding one (or rotating its token) shows the raw token on the
    page that answers, once: only its hash is stored, and it never travels in a cookie."""

    form = WorkerNodeForm
    list_display = ("name", "kind_shown", "device", "active", "last_heartbeat_at")
    readonly_fields = ("last_heartbeat_at", "info")
    actions = ["rotate_tokens"]

    @admin.display(description=_("类型"), ordering="kind")
    def kind_shown(self, node: WorkerNode) -> str:
        return worker_kind_label(node.kind)

    def get_fields(self, request: HttpRequest, obj=None):
        if obj is None:
            return ("name", "kind", "device")  # active from the start; the rest comes later
        return (*WorkerNodeForm.Meta.fields, *self.readonly_fields)

    def save_model(self, request: HttpRequest, obj: WorkerNode, form, change: bool) -> None:
        if change:
            obj.save()
            return
        raw = workers.worker_token_create(name=obj.name, kind=obj.kind, device=obj.device)
        obj.pk = WorkerNode.objects.get(name=obj.name).pk
        request._new_worker_tokens = [(obj.name, raw)]

    def response_add(self, request: HttpRequest, obj: WorkerNode, post_url_continue=None):
        return self._tokens_page(request, request._new_worker_tokens)

    @admin.action(description=_("轮换令牌（旧令牌立即失效）"))
    def rotate_tokens(self, request: HttpRequest, queryset) -> HttpResponse:
        tokens = [
            (
                node.name,
                workers.worker_token_create(name=node.name, kind=node.kind, device=node.device),
            )  # fmt: skip
            for node in queryset
        ]
        return self._tokens_page(request, tokens)

    def _tokens_page(self, request: HttpRequest, tokens: list[tuple[str, str]]) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": _("评测机令牌"),
            "tokens": tokens,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/gradinglab/worker_tokens.html", context)


@admin.register(RegradeRun)
class RegradeRunAdmin(admin.ModelAdmin):
    list_display = ("assignment", "actor", "dry_run", "at")
    readonly_fields = ("assignment", "actor", "dry_run", "changes", "at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
