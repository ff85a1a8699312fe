"""Stored lecture HTML as a page shows it."""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from accounts.language import page_lang
from lectures.figures import in_language

register = template.Library()


@register.filter
def lecture_html(stored: str) -> SafeString:
    """HTML the importer rendered (trusted: it escapes what the notes say), with its figures in
    the page's language."""
    return mark_safe(in_language(stored, page_lang()))
