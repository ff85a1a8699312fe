from django.contrib import admin

from accounts.models import ApiToken, Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ("student_id", "display_name", "section", "user")
    search_fields = ("student_id", "display_name", "user__email")
    list_filter = ("section",)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ("user", "label", "created_at", "last_used_at", "revoked_at")
    readonly_fields = ("user", "key_hash", "label", "created_at", "last_used_at")
    search_fields = ("user__username",)
