from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.urls import path
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.language import LanguageMarkedModelForm, page_lang
from lectures.anchors import section_url
from lectures.figures import in_language
from lectures.models import CoursePage, Lecture, Section
from lectures.rendering import RenderError, render_markdown
from lectures.services import (
    course_page_save_staff_edit,
    lecture_save_staff_edit,
    section_save_staff_edit,
)

PREVIEW_JS = "lectures/admin_preview.js"


class MarkdownCheckedForm(LanguageMarkedModelForm):
    """Markdown the renderer refuses (an unclosed ``` fence, an unknown figure) is an error at its
    field, with its line: saving it was a server error that lost the staff member's edit."""

    def clean(self) -> dict:
        data = super().clean()
        for name in ("body_md", "intro_md"):
            if name in self.fields and data.get(name):
                try:
                    render_markdown(data[name], link=section_url)
                except RenderError as exc:
                    self.add_error(name, exc.at_line())
        return data


class PreviewMixin:
    """Adds a live Markdown preview (server-rendered, same pipeline as the import) to the form,
    and refuses to save what the preview cannot render."""

    preview_field = "body_md"
    form = MarkdownCheckedForm

    class Media:
        js = (PREVIEW_JS,)
        css = {"all": ("lectures/pygments.css", "lectures/lectures.css")}

    def get_urls(self):
        name = f"{self.model._meta.app_label}_{self.model._meta.model_name}_preview"
        extra = [path("preview/", self.admin_site.admin_view(self.preview_view), name=name)]
        return extra + super().get_urls()

    def preview_view(self, request: HttpRequest) -> JsonResponse:
        if request.method != "POST":
            return JsonResponse({"error": gettext("只接受 POST 请求。")}, status=405)
        try:
            html = render_markdown(request.POST.get("markdown", ""), link=section_url).html
            html = in_language(html, page_lang())
        except RenderError as exc:
            return JsonResponse({"error": exc.at_line()}, status=400)
        return JsonResponse({"html": html})

    @admin.display(description=_("预览"))
    def preview(self, obj) -> str:
        html_field = self.preview_field.replace("_md", "_html")
        html = getattr(obj, html_field, "") if obj else ""
        return format_html(
            '<div class="md-preview" data-source="id_{}">{}</div>',
            self.preview_field,
            mark_safe(in_language(html, page_lang())),
        )


class SectionInline(admin.TabularInline):
    model = Section
    fields = ("number", "title", "edited_at")
    readonly_fields = ("number", "title", "edited_at")
    extra = 0
    can_delete = False
    show_change_link = True


@admin.register(Lecture)
class LectureAdmin(PreviewMixin, admin.ModelAdmin):
    preview_field = "intro_md"
    list_display = ("number", "title", "module", "imported_at")
    fields = (
        "number",
        ("title", "title_en"),
        ("module", "module_en"),
        "overview_md",
        "intro_md",
        "preview",
        "source_path",
        "imported_at",
    )
    readonly_fields = ("number", "preview", "source_path", "imported_at")
    inlines = [SectionInline]

    def has_add_permission(self, request) -> bool:
        return False  # lectures come from content files (manage.py import_lectures)

    def save_model(self, request, obj: Lecture, form, change: bool) -> None:
        lecture_save_staff_edit(lecture=obj)


@admin.register(Section)
class SectionAdmin(PreviewMixin, admin.ModelAdmin):
    list_display = ("number", "title", "lecture", "edited_at")
    list_filter = ("lecture",)
    search_fields = ("number", "title", "search_body")
    fields = (
        "lecture",
        "number",
        "title",
        "title_en",
        "body_md",
        "preview",
        "edited_at",
        "edited_by",
    )
    readonly_fields = ("lecture", "number", "preview", "edited_at", "edited_by")

    def has_add_permission(self, request) -> bool:
        return False  # sections come from content files (manage.py import_lectures)

    def save_model(self, request, obj: Section, form, change: bool) -> None:
        section_save_staff_edit(section=obj, user=request.user)


@admin.register(CoursePage)
class CoursePageAdmin(PreviewMixin, admin.ModelAdmin):
    list_display = ("slug", "title")
    fields = ("slug", "title", "body_md", "preview")
    readonly_fields = ("preview",)

    def save_model(self, request, obj: CoursePage, form, change: bool) -> None:
        course_page_save_staff_edit(page=obj)
