"""How the site writes a date-time as text: one format for pages, CSV files and messages."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

# To the minute; the rate limit's "next try at" names the second, since it is under a minute away
# at times.
MINUTE = "%Y-%m-%d %H:%M"
SECOND = "%Y-%m-%d %H:%M:%S"


def local_text(moment: datetime | None, *, seconds: bool = False) -> str:
    """``moment`` in the current time zone (the site's TIME_ZONE: nothing activates another),
    "2026-12-20 23:59"; "" for none. Stored date-times are UTC: written without this, one reads
    8 hours off in Asia/Shanghai."""
    if moment is None:
        return ""
    return timezone.localtime(moment).strftime(SECOND if seconds else MINUTE)
