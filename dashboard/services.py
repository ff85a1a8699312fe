"""Writes for announcements: the Markdown is rendered once, on save, by the lectures' renderer (so
math, code and `sec:N.M` links work as in the notes), with raw HTML escaped."""

from __future__ import annotations

import logging

from django.contrib.auth.models import AbstractBaseUser

from dashboard.models import Announcement
from lectures.anchors import section_url
from lectures.rendering import render_markdown

log = logging.getLogger("dashboard")


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


def announcements_rerender() -> dict[str, int]:
    """Store every announcement's body as the renderer now draws it, as the lecture import does
    for lectures: a renderer fix (raw HTML escaped, say) then reaches announcements saved before
    it, at the next deploy (scripts/import_content.sh runs this). One body that fails to render
    is logged and keeps its HTML; the others still refresh."""
    counts = {"rerendered": 0, "unchanged": 0, "errors": 0}
    for row in Announcement.objects.only("pk", "body_md", "body_html").order_by("pk").iterator():
        try:
            html = render_announcement(row.body_md)
        except Exception:
            log.exception("announcement %s: body failed to render; its stored HTML is kept", row.pk)
            counts["errors"] += 1
            continue
        if html == row.body_html:
            counts["unchanged"] += 1
            continue
        Announcement.objects.filter(pk=row.pk).update(body_html=html)
        counts["rerendered"] += 1
    return counts
