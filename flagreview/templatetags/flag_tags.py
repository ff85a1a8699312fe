"""`{% flag_notice sub doc user %}`: the lab's submission page says what a flag means and links the
evidence page; the raw flag strings are for staff only."""

from __future__ import annotations

from typing import Any

from django import template

from flagreview.access import reads_flag_record
from flagreview.selectors import case_of

register = template.Library()


@register.inclusion_tag("flagreview/partials/notice.html")
def flag_notice(sub, doc: dict[str, Any] | None, user) -> dict[str, Any]:
    """`sub` is one the page already showed to `user` (through the lab's access check)."""
    case = None if sub.is_pending else case_of(sub)
    return {"case": case, "doc": doc, "staff": reads_flag_record(user)}
