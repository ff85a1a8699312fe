"""Stored lecture HTML as a page shows it."""

from __future__ import annotations

from django import template
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe

from accounts.language import in_page_language, page_lang
from lectures.figures import in_language
from lectures.models import Section

register = template.Library()


@register.filter
def lecture_html(stored: str) -> SafeString:
    """HTML the importer rendered (trusted: it escapes what the notes say), with its figures in
    the page's language."""
    return mark_safe(in_language(stored, page_lang()))


@register.filter
def section_title(section: Section) -> SafeString:
    """A section's stored title HTML in the page's language. The English one sits inside the
    notes' lang="zh-CN" (the table of contents, the article), so it carries lang="en" itself."""
    english = in_page_language("", section.title_en_html)
    if english:
        return format_html('<span lang="en">{}</span>', mark_safe(english))
    return mark_safe(section.title_html)
