"""Text from outside that is stored, not refused: PostgreSQL keeps no NUL character (in text
columns or in jsonb), so a NUL in it would turn the whole write into a server error."""

from __future__ import annotations

from typing import Any

REPLACEMENT = "\ufffd"  # U+FFFD, what a reader shows for a character that could not be kept


def without_nul(value: Any) -> Any:
    """``value`` (JSON-shaped: dicts, lists, strings, numbers) with every NUL in its strings and
    keys replaced by U+FFFD; everything else as it was."""
    if isinstance(value, str):
        return value.replace("\x00", REPLACEMENT)
    if isinstance(value, dict):
        return {without_nul(k): without_nul(v) for k, v in value.items()}
    if isinstance(value, list):
        return [without_nul(v) for v in value]
    return value
