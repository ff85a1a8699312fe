"""The cached HTML body of a lecture page.

The body (TOC + all sections) is the expensive part of a lecture page and is the same for every
user, so it is rendered once per content version and cached. Per-user "读完了" buttons are spliced
into marked slots with plain string replacement, which keeps a request cheap.
"""

from __future__ import annotations

import hashlib

from django.core.cache import cache
from django.template.loader import render_to_string

from lectures.models import Lecture, Section

CACHE_SECONDS = 24 * 3600  # the key changes with the content, so a long TTL is safe


def slot(section_id: int) -> str:
    return f"<!--pdc-read-slot:{section_id}-->"


def _version(lecture: Lecture, sections: list[Section]) -> str:
    h = hashlib.sha256(lecture.content_hash.encode())
    for s in sections:
        h.update(f"{s.pk}:{s.import_hash}:{s.edited_at}:{s.order}".encode())
    return h.hexdigest()[:32]


def lecture_body_html(lecture: Lecture, sections: list[Section]) -> str:
    key = f"lectures:body:{lecture.pk}:{_version(lecture, sections)}"
    html = cache.get(key)
    if html is None:
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
