from django.contrib import admin

from dashboard.models import Announcement
from dashboard.services import announcement_save
from lectures.admin import MarkdownCheckedForm


@admin.register(Announcement)
class AnnouncementAdmin(admin.ModelAdmin):
    list_display = ("title", "pinned", "starts_at", "expires_at", "created_by")
    list_filter = ("pinned", "starts_at", "expires_at")
    search_fields = ("title", "body_md")
    fields = ("title", "body_md", "pinned", "starts_at", "expires_at")
    # Markdown the renderer refuses (too long, an unclosed fence) is an error at the box, not a
    # server error from save_model that loses the text.
    form = MarkdownCheckedForm

    def save_model(self, request, obj, form, change) -> None:
        announcement_save(announcement=obj, actor=request.user)
