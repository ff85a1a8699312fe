"""Writes for announcements: the Markdown is rendered once, on save, with raw HTML escaped."""

from __future__ import annotations

import markdown
from django.contrib.auth.models import AbstractBaseUser

from dashboard.models import Announcement


def render_announcement(text: str) -> str:
    """Markdown to HTML. Staff text is not trusted to carry HTML: raw tags come out escaped."""
    md = markdown.Markdown(extensions=["sane_lists", "tables"])
    md.preprocessors.deregister("html_block")
    md.inlinePatterns.deregister("html")
    return md.convert(text)


def announcement_save(
    *, announcement: Announcement, actor: AbstractBaseUser | None = None
) -> Announcement:
    announcement.body_html = render_announcement(announcement.body_md)
    if actor is not None and announcement.created_by_id is None:
        announcement.created_by = actor
    announcement.full_clean()
    announcement.save()
    return announcement
