"""A row id typed into a URL's query string: plain ASCII digits that fit a database key, else None.

`str.isdigit()` also accepts "²" and "٣", which `int()` refuses (a server error), and 10**20
passes `int()` but not a 64-bit integer column (SQLite raises OverflowError: another one).
"""

from __future__ import annotations

MAX_ID = 2**63 - 1  # the largest value of a 64-bit signed key column (SQLite, PostgreSQL bigint)


def query_id(raw: str | None) -> int | None:
    text = (raw or "").strip()
    if not (text.isascii() and text.isdigit()):
        return None
    value = int(text)
    return value if 0 < value <= MAX_ID else None
