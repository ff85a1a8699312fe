"""Text from outside that is stored, not refused: PostgreSQL keeps no NUL character (in text
columns or in jsonb) and no lone UTF-16 surrogate (JSON's "\\ud800" escape: neither UTF-8 nor
jsonb holds one), so either in it would turn the whole write into a server error."""

from __future__ import annotations

import re
from typing import Any

REPLACEMENT = "\ufffd"  # U+FFFD, what a reader shows for a character that could not be kept
# NUL, and any surrogate code point: a str holds a valid pair as one character, so one left here
# is lone (a worker's output decoded with errors="surrogateescape" carries them).
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: Any) -> Any:
    """``value`` (JSON-shaped: dicts, lists, strings, numbers) with every NUL and lone surrogate in
    its strings and keys replaced by U+FFFD; everything else as it was."""
    if isinstance(value, str):
        return _UNSTORABLE.sub(REPLACEMENT, value)
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [storable(v) for v in value]
    return value


def has_unstorable(value: Any) -> bool:
    """Whether ``value`` (shaped as for ``storable``) holds a NUL or lone surrogate anywhere: for
    text an author writes, which is refused with a word rather than changed."""
    if isinstance(value, str):
        return _UNSTORABLE.search(value) is not None
    if isinstance(value, dict):
        return any(has_unstorable(k) or has_unstorable(v) for k, v in value.items())
    if isinstance(value, list):
        return any(has_unstorable(v) for v in value)
    return False
