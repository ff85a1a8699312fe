"""Writes for announcements: the Markdown is rendered once, on save, by the lectures' renderer (so
math, code and `sec:N.M` links work as in the notes), with raw HTML escaped."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser

from dashboard.models import Announcement
from lectures.anchors import section_url
from lectures.rendering import render_markdown


def render_announcement(text: str) -> str:
    """Markdown to HTML. Staff text is not trusted to carry HTML: raw tags come out escaped.
    Heading ids start "announcement-" so they never repeat an id of the home page's own."""
    return render_markdown(text, link=section_url, ids="announcement-").html


def announcement_save(
    *, announcement: Announcement, actor: AbstractBaseUser | None = None
) -> Announcement:
    announcement.body_html = render_announcement(announcement.body_md)
    if actor is not None and announcement.created_by_id is None:
        announcement.created_by = actor
    announcement.full_clean()
    announcement.save()
    return announcement
