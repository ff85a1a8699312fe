"""Ids from a URL's query: only ASCII digits that fit a 64-bit key column (pdcsite.params)."""

from __future__ import annotations

import pytest

from pdcsite.params import MAX_ID, query_id


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        ("7", 7),
        (" 12 ", 12),
        (str(MAX_ID), MAX_ID),
        (str(MAX_ID + 1), None),  # passes int(), overflows SQLite's and PostgreSQL's bigint
        ("99999999999999999999", None),
        ("²", None),  # str.isdigit() says yes, int() says no
        ("٣", None),  # an Arabic-Indic digit: int() would read 3
        ("0", None),
        ("-1", None),
        ("1e3", None),
        ("", None),
        (None, None),
        ("1\x00", None),
    ],
)
def test_query_id(raw, parsed) -> None:
    assert query_id(raw) == parsed
