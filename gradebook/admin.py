from django.contrib import admin
from django.contrib.admin import helpers
from django.db.models import OuterRef, QuerySet, Subquery
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from gradebook import selectors
from gradebook.access import can_release
from gradebook.forms import GradeItemAdminForm
from gradebook.models import (
    Category,
    Excusal,
    Extension,
    Grade,
    GradebookSettings,
    GradeEvent,
    GradeItem,
    RegradeRequest,
)
from gradebook.services import LATE_FIELDS, grade_item_late_policy_set, item_release_set
from gradebook.templatetags.gradebook_tags import category_label, points_text, ref_link


def _set_released(request: HttpRequest, queryset, released: bool) -> None:
    if not can_release(request.user):
        return
    for item in queryset:
        item_release_set(item=item, released=released, actor=request.user)  # audited


@admin.action(description=_("发布所选成绩项的成绩"), permissions=["release"])
def release_items(modeladmin, request, queryset) -> None:
    _set_released(request, queryset, True)


@admin.action(description=_("隐藏所选成绩项的成绩"), permissions=["release"])
def hide_items(modeladmin, request, queryset) -> None:
    _set_released(request, queryset, False)


class CategoryFilter(admin.SimpleListFilter):
    """Categories by their names (测验, 实验), not their keys; the field has no choices."""

    title = _("类别")
    parameter_name = "category"

    def lookups(self, request, model_admin):
        titles = dict(Category.objects.values_list("key", "title"))
        keys = GradeItem.objects.order_by("category").values_list("category", flat=True).distinct()
        return [(key, category_label(key, titles.get(key, ""))) for key in keys]

    def queryset(self, request, queryset):
        return queryset.filter(category=self.value()) if self.value() else queryset


@admin.register(GradeItem)
class GradeItemAdmin(admin.ModelAdmin):
    form = GradeItemAdminForm
    list_display = (
        "key",
        "title",
        "kind",
        "category_shown",
        "max_points",
        "weight",
        "due_at",
        "late_policy",
        "curve_shown",
        "released",
        "scores_from",
    )
    list_filter = ("kind", CategoryFilter, "released", "late_policy")
    search_fields = ("key", "title")
    # Release and the curve go through the audited services (actions below; the curve on the
    # item's staff page, with its preview and a reason).
    readonly_fields = ("released", "curve_kind", "curve_value", "curve_reason")
    actions = [release_items, hide_items]

    def get_readonly_fields(self, request: HttpRequest, obj: GradeItem | None = None):
        fields = super().get_readonly_fields(request, obj)
        # A quiz's item takes its hold from the quiz's review options on every sync
        # (quizzes.services.quiz_scores_from): a date typed here would be overwritten.
        # By the key as stored: a refused change form comes back with the typed key on ``obj``,
        # and a junk key there made the field editable in a form built without it (a 500).
        stored = GradeItem.objects.filter(pk=obj.pk).first() if obj is not None and obj.pk else None
        return (*fields, "scores_from") if stored is not None and stored.from_quiz else fields

    def has_release_permission(self, request: HttpRequest) -> bool:
        return can_release(request.user)

    def save_model(self, request: HttpRequest, obj: GradeItem, form, change: bool) -> None:
        # A late policy changed here goes through the service, so a quiz's best attempt and a
        # lab's counting submission are chosen again under it (they stayed as they were).
        late = {name: getattr(obj, name) for name in LATE_FIELDS if name in form.changed_data}
        if change and late:
            for name in late:
                setattr(obj, name, form.initial[name])
        super().save_model(request, obj, form, change)
        if change and late:
            grade_item_late_policy_set(item=obj, late=late, actor=request.user)

    def get_queryset(self, request: HttpRequest) -> QuerySet:
        # The category's stored title for the list's name column, in the list's one query.
        title = Category.objects.filter(key=OuterRef("category")).values("title")[:1]
        return super().get_queryset(request).annotate(category_title=Subquery(title))

    @admin.display(description=_("曲线"))
    def curve_shown(self, item: GradeItem) -> str:
        return str(item.curve) if item.curve else "—"

    @admin.display(description=_("类别"), ordering="category")
    def category_shown(self, item: GradeItem) -> str:
        """By its name (测验, or the title staff gave it), as the filter beside it: the column
        showed the key."""
        return category_label(item.category, item.category_title or "")

    def action_checkbox(self, obj: GradeItem) -> str:
        # Django names the box by an aria-label string; a Chinese quiz title on an English page
        # must carry its lang, which only markup can: a visually hidden label instead.
        from accounts.templatetags.ui_tags import content

        name = format_html(_("Select this object for an action - {}"), content(str(obj)))
        return format_html(
            '<label><input type="checkbox" name="{}" value="{}" class="action-select">'
            '<span class="visually-hidden">{}</span></label>',
            helpers.ACTION_CHECKBOX_NAME,
            obj.pk,
            name,
        )


@admin.register(Category)
class CategoryAdmin(admin.ModelAdmin):
    list_display = ("key", "name", "weight", "drop_lowest", "position")
    list_editable = ("weight", "drop_lowest", "position")

    @admin.display(description=_("名称"), ordering="title")
    def name(self, category: Category) -> str:
        return category.display_name


@admin.register(GradebookSettings)
class GradebookSettingsAdmin(admin.ModelAdmin):
    list_display = ("pk", "grace_days")

    def has_add_permission(self, request) -> bool:
        return not GradebookSettings.objects.exists()


class _ReadOnly(admin.ModelAdmin):
    """Changed only through the gradebook services (staff pages), where every change is audited."""

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Extension)
class ExtensionAdmin(_ReadOnly):
    list_display = ("student", "item", "due_at", "extra_days", "granted_by", "granted_at")
    search_fields = ("student__username", "item__key")


@admin.register(Excusal)
class ExcusalAdmin(_ReadOnly):
    list_display = ("student", "item", "reason", "granted_by", "granted_at")
    search_fields = ("student__username", "item__key")


@admin.register(RegradeRequest)
class RegradeRequestAdmin(_ReadOnly):
    list_display = ("pk", "student", "item", "work", "status", "created_at", "resolved_by")
    list_filter = ("status",)
    search_fields = ("student__username", "item__key", "ref")

    # The work as the staff pages say it ("提交 #1", linked), not the stored key "submission:1".
    @admin.display(description=_("对象"))
    def work(self, obj: RegradeRequest) -> str:
        return ref_link(obj.ref)

    def get_fields(self, request, obj=None):
        return [("work" if name == "ref" else name) for name in super().get_fields(request, obj)]

    def get_readonly_fields(self, request, obj=None):
        return [*super().get_readonly_fields(request, obj), "work"]


@admin.display(description=_("原因"))
def shown_reason(event: GradeEvent) -> str:
    """A reason the system wrote in the admin's language (gradebook.reasons), else as written."""
    return event.shown_reason


class GradeEventInline(admin.TabularInline):
    model = GradeEvent
    extra = 0
    can_delete = False
    fields = ("at", "action", "actor", "old_points", "new_points", shown_reason)
    readonly_fields = fields

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Grade)
class GradeAdmin(admin.ModelAdmin):
    list_display = (
        "student",
        "item",
        "points",
        "auto_points",
        "override_points",
        "source",
        "computed_at",
    )
    list_filter = ("item__kind", "item", "source")
    search_fields = ("student__username", "student__first_name", "item__key")
    fields = (
        "student",
        "item",
        "points",
        "counted_now",
        "posted_work",
        "auto_points",
        "override_points",
        "override_reason",
        "source",
        "submitted_at",
        "computed_at",
    )
    readonly_fields = fields
    inlines = [GradeEventInline]

    def has_add_permission(self, request) -> bool:
        return False  # scores change only through the gradebook services (audited)

    def has_change_permission(self, request, obj=None) -> bool:
        # As for add: the staff pages (override with a reason, CSV import) change a grade, audited.
        # The change form let a TA (change_grade, for the import) type over counted_ref unaudited.
        return False

    @admin.display(description=_("应用记入的作业"))
    def posted_work(self, grade: Grade) -> str:
        return ref_link(grade.counted_ref)

    @admin.display(description=_("总评中计入"))
    def counted_now(self, grade: Grade) -> str:
        """The row keeps the work the app posted. Under GRACE the standing may count another of the
        student's works, chosen with the grace days left at this item (selectors.item_result), as
        the staff student page says: said here too, so the admin does not contradict that page."""
        result = selectors.item_result(grade.student, grade.item)
        if result.counted is None:
            return "—"
        page = reverse("gradebook:staff_student", args=[grade.student_id])
        return format_html(
            '<span id="counted-now">{} · {}</span> (<a href="{}?item={}">{}</a>)',
            points_text(result.counted),
            ref_link(result.ref),
            page,
            grade.item_id,
            _("学生成绩页"),
        )


@admin.register(GradeEvent)
class GradeEventAdmin(_ReadOnly):
    list_display = (
        "at",
        "item",
        "student",
        "action",
        "old_points",
        "new_points",
        "actor",
        shown_reason,
    )
    list_filter = ("action", "item")
    search_fields = ("student__username", "item__key", "reason")
