from django.contrib import admin

from gradebook.models import Grade, GradeEvent, GradeItem


@admin.register(GradeItem)
class GradeItemAdmin(admin.ModelAdmin):
    list_display = (
        "key",
        "title",
        "kind",
        "category",
        "max_points",
        "weight",
        "due_at",
        "released",
    )
    list_filter = ("kind", "category", "released")
    search_fields = ("key", "title")


class GradeEventInline(admin.TabularInline):
    model = GradeEvent
    extra = 0
    can_delete = False
    fields = ("at", "action", "actor", "old_points", "new_points", "reason")
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
    readonly_fields = (
        "student",
        "item",
        "points",
        "auto_points",
        "override_points",
        "override_reason",
        "source",
        "submitted_at",
        "computed_at",
    )
    inlines = [GradeEventInline]

    def has_add_permission(self, request) -> bool:
        return False  # scores change only through the gradebook services (audited)


@admin.register(GradeEvent)
class GradeEventAdmin(admin.ModelAdmin):
    list_display = (
        "at",
        "item",
        "student",
        "action",
        "old_points",
        "new_points",
        "actor",
        "reason",
    )
    list_filter = ("action", "item")
    search_fields = ("student__username", "item__key", "reason")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
