"""How the site writes a date-time as text: one format for pages, CSV files and messages."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

# To the minute. Seconds tell apart a student's submissions a few seconds apart, and the rate
# limit's "next try at", under a minute away at times. A list of this term's work (a queue, a
# dashboard) leaves out the year.
MINUTE = "%Y-%m-%d %H:%M"
SECOND = "%Y-%m-%d %H:%M:%S"
YEAR = "%Y-"


def local_text(moment: datetime | None, *, seconds: bool = False, year: bool = True) -> str:
    """``moment`` in the current time zone (the site's TIME_ZONE: nothing activates another),
    "2026-12-20 23:59" ("12-20 23:59" without the year); "" for none. Stored date-times are UTC:
    written without this, one reads 8 hours off in Asia/Shanghai."""
    if moment is None:
        return ""
    form = SECOND if seconds else MINUTE
    return timezone.localtime(moment).strftime(form if year else form.removeprefix(YEAR))


def form_words(words: str) -> dict[str, bool]:
    """A template's form of a date-time ("", "short", "seconds", "short seconds") as local_text's
    keyword arguments; an unknown word is a mistake in the template, not a form."""
    chosen = set(words.split())
    if chosen - {"short", "seconds"}:
        raise ValueError(f"unknown date-time form: {words!r} (short, seconds)")
    return {"seconds": "seconds" in chosen, "year": "short" not in chosen}
