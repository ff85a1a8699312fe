from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin.utils import unquote
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from accounts.language import LanguageMarkedModelForm
from quizzes.access import (
    ANSWERED_IS_LOCKED,
    PUBLISHED_IS_LOCKED,
    can_author,
    can_change,
    can_change_question,
    can_publish,
)
from quizzes.forms import QuizLatePenaltyForm
from quizzes.models import GRADING_HELP, PARTIAL_HELP, Attempt, Choice, Question, Quiz, QuizQuestion
from quizzes.services import open_ended_warning, quiz_settings_apply, recomputed_text


class ChoiceForm(LanguageMarkedModelForm):
    class Meta:
        model = Choice
        fields = ("key", "position", "text", "text_en", "correct")
        # A choice is a line or two; Django's default 10-row, 40-column TextField box made the
        # inline's table wider than a desktop window.
        widgets = {
            "text": forms.Textarea(attrs={"rows": 2, "cols": 24}),
            "text_en": forms.Textarea(attrs={"rows": 2, "cols": 24}),
        }


class ChoiceInline(admin.TabularInline):
    model = Choice
    form = ChoiceForm
    extra = 0


class LockedForSome(admin.ModelAdmin):
    """An object `may_change(user, obj)` refuses is shown read-only (inlines included) to that
    author, with `locked_message` saying why, and a POST is refused."""

    may_change: Callable[[Any, Any], bool]
    locked_message: str

    def has_change_permission(self, request, obj=None) -> bool:
        if obj is not None and not self.may_change(request.user, obj):
            return False
        return super().has_change_permission(request, obj)

    def change_view(self, request, object_id, form_url="", extra_context=None):
        obj = self.get_object(request, unquote(object_id)) if request.method == "GET" else None
        if obj is not None and can_author(request.user) and not self.may_change(request.user, obj):
            messages.info(request, self.locked_message)
        return super().change_view(request, object_id, form_url, extra_context)


@admin.register(Question)
class QuestionAdmin(LockedForSome):
    list_display = ("bank_id", "lecture", "section", "qtype", "generator")
    list_filter = ("lecture", "qtype")
    search_fields = ("bank_id", "stem")
    inlines = [ChoiceInline]
    form = LanguageMarkedModelForm

    # quizzes.access.can_change_question: an answered question is the instructors' to change.
    may_change = staticmethod(can_change_question)
    locked_message = ANSWERED_IS_LOCKED


class PoolInline(admin.TabularInline):
    model = QuizQuestion
    fields = ("question", "order", "points")
    extra = 0
    autocomplete_fields = ("question",)


@admin.register(Quiz)
class QuizAdmin(LockedForSome):
    list_display = ("title", "slug", "kind", "published", "opens_at", "closes_at", "staff_links")
    list_filter = ("kind", "published")
    prepopulated_fields = {"slug": ("title",)}
    inlines = [PoolInline]
    form = QuizLatePenaltyForm
    fieldsets = (
        (
            None,
            {
                "fields": (
                    ("title", "title_en"),
                    "slug",
                    "kind",
                    "lecture",
                    "description",
                    "description_en",
                    "published",
                )
            },
        ),
        (
            _("时间"),
            {
                "fields": (
                    "opens_at",
                    "closes_at",
                    "late_until",
                    "late_penalty_percent",
                    "time_limit_minutes",
                )
            },
        ),
        (
            _("作答与评分"),
            {
                "fields": (
                    "max_attempts",
                    "grading_method",
                    "partial_credit",
                    "grade_max_points",
                    "shuffle_questions",
                    "shuffle_choices",
                    "draw_count",
                ),
                # Lazy: formatted per request, in the language of the page (our own text, no markup).
                "description": format_lazy("<p>{}</p><p>{}</p>", GRADING_HELP, PARTIAL_HELP),
            },
        ),
        (
            _("回顾选项：作答中"),
            {
                "fields": (
                    "review_correctness_during",
                    "review_points_during",
                    "review_right_answer_during",
                    "review_explanation_during",
                )
            },
        ),
        (
            _("回顾选项：提交后（测验未截止）"),
            {
                "fields": (
                    "review_correctness_after",
                    "review_points_after",
                    "review_right_answer_after",
                    "review_explanation_after",
                )
            },
        ),
        (
            _("回顾选项：截止后"),
            {
                "fields": (
                    "review_correctness_closed",
                    "review_points_closed",
                    "review_right_answer_closed",
                    "review_explanation_closed",
                )
            },
        ),
    )

    def get_readonly_fields(self, request, obj=None):
        # TAs draft quizzes; publishing is an instructor's decision (quizzes.publish_quiz).
        if can_publish(request.user):
            return super().get_readonly_fields(request, obj)
        return (*super().get_readonly_fields(request, obj), "published")

    # The staff editor's rule (quizzes.access.can_change): a published quiz is the instructors'.
    may_change = staticmethod(can_change)
    locked_message = PUBLISHED_IS_LOCKED

    def save_model(self, request, obj: Quiz, form, change: bool) -> None:
        super().save_model(request, obj, form, change)
        # The gradebook lists the quiz (with its due date) before anyone submits; a changed
        # maximum or grading method recomputes the grades already given, as on the staff editor.
        changed = form.changed_data if change else []
        recomputed = quiz_settings_apply(quiz=obj, changed=changed, actor=request.user)
        if recomputed:
            self.message_user(request, recomputed_text(recomputed))
        # Published now, or its close (or kind) changed while published: as the staff editor.
        warning = open_ended_warning(obj)
        if warning and (not change or {"published", "closes_at", "kind"} & set(changed)):
            self.message_user(request, warning, messages.WARNING)

    @admin.display(description=_("统计"))
    def staff_links(self, obj: Quiz) -> str:
        return format_html(
            '<a href="{}">{}</a> · <a href="{}">CSV</a>',
            reverse("quizzes:analysis", args=[obj.slug]),
            _("题目分析"),
            reverse("quizzes:attempts_csv", args=[obj.slug]),
        )


@admin.register(Attempt)
class AttemptAdmin(admin.ModelAdmin):
    list_display = ("quiz", "student", "number", "state", "started_at", "submitted_at", "score")
    list_filter = ("state", "quiz")
    search_fields = ("student__username",)

    # Read-only, superusers included: an attempt is the student's work, and its score reaches the
    # gradebook only through the services (quiz_grade_sync: the best attempt, the audit row); an
    # attempt edited here left the gradebook counting a score that no longer existed, with no
    # audit row. Staff change a grade by a rescore, an override or an excusal. Deleting stays a
    # superuser's (Django's default), so a quiz or an account with attempts can still be deleted.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False
