"""The cached HTML body of a lecture page.

The body (TOC + all sections) is the expensive part of a lecture page and is the same for every
user, so it is rendered once per content version and cached. Per-user "读完了" buttons are spliced
into marked slots with plain string replacement, which keeps a request cheap.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string
from django.utils.translation import get_language

from lectures.models import Lecture, Section

CACHE_SECONDS = 24 * 3600  # the key changes with the content, so a long TTL is safe
PAGE_CACHE_SECONDS = 600  # per-user pages: short, they only save re-rendering on revisits


def slot(section_id: int) -> str:
    return f"<!--pdc-read-slot:{section_id}-->"


def lecture_body_html(lecture: Lecture) -> str:
    """The shared page body, cached per lecture revision."""
    # The body holds translated labels (the TOC heading), so each language has its own copy.
    key = f"lectures:body:{lecture.pk}:{lecture.revision}:{get_language()}"
    html = cache.get(key)
    if html is None:
        sections = list(lecture.sections.order_by("order"))
        tops = [s for s in sections if s.level == 2]
        children: dict[int, list[Section]] = {}
        for s in sections:
            if s.parent_id:
                children.setdefault(s.parent_id, []).append(s)
        tree = [(s, children.get(s.pk, []), slot(s.pk)) for s in tops]
        html = render_to_string(
            "lectures/partials/lecture_body.html", {"lecture": lecture, "tree": tree}
        )
        cache.set(key, html, CACHE_SECONDS)
    return html


def splice_read_buttons(html: str, buttons: dict[int, str]) -> str:
    for section_id, button in buttons.items():
        html = html.replace(slot(section_id), button, 1)
    return html


def page_cache_key(request, lecture, neighbours) -> str | None:
    """Key of one user's whole lecture page, or None when the page must be rendered afresh.

    Everything the page shows goes into the key: content version, the user's marks (count and
    latest time, from the lecture index), the neighbours, the language, who the user is as the
    header shows it, and the CSRF secret the page's forms are signed with (it rotates at login).
    Pages with pending flash messages are never cached: rendering them consumes the messages.
    """
    from django.contrib.messages import get_messages

    if len(get_messages(request)):
        return None
    from accounts.access import is_staff_member

    user = request.user
    parts = [
        f"{lecture.pk}:{lecture.revision}",
        f"{lecture.reads}:{lecture.last_read}",
        ",".join(f"{n.number}:{n.title}:{n.title_en}" if n else "-" for n in neighbours),
        getattr(request, "LANGUAGE_CODE", ""),
        f"{user.pk}:{user.get_short_name()}:{user.get_username()}:{user.is_staff}:{user.is_superuser}",
        f"course-staff:{is_staff_member(user)}",  # the header's admin link follows the role
        request.META.get("CSRF_COOKIE", ""),
    ]
    digest = hashlib.sha256("\n".join(parts).encode()).hexdigest()[:40]
    return f"lectures:page:{user.pk}:{lecture.pk}:{digest}"
