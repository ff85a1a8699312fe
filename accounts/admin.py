from axes import admin as axes_admin
from axes.models import AccessAttempt
from django.contrib import admin
from django.utils.translation import gettext_lazy as _

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


# django-axes' attempt list, with its two computed columns named in the page's language (the
# package leaves them to Django, which prints the method names "Status" and "Expiration").
admin.site.unregister(AccessAttempt)


@admin.register(AccessAttempt)
class AccessAttemptAdmin(axes_admin.AccessAttemptAdmin):
    @admin.display(description=_("状态"))
    def status(self, obj: AccessAttempt) -> str:
        return super().status(obj)

    @admin.display(description=_("过期时间"))
    def expiration(self, obj: AccessAttempt):
        return super().expiration(obj)
