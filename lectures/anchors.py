"""Where a numbered section of the notes lives on the site: /lectures/<lecture>/#sec-<number>."""

from __future__ import annotations

from django.urls import reverse


def section_url(number: str) -> str:
    """5.13 -> /lectures/5/#sec-5-13 (the anchor is the notes' numbering, dots as dashes)."""
    lecture = number.split(".")[0]
    return reverse("lectures:detail", args=[int(lecture)]) + "#sec-" + number.replace(".", "-")
