"""Cells of the CSV files the site sends, as a spreadsheet will read them.

A cell of free text that starts with =, +, -, @ (or a tab or carriage return, which some
spreadsheets skip before such a sign) is run as a formula when the file is opened: a student's
name '=HYPERLINK("http://…")' becomes a link in a TA's export (OWASP: CSV injection). Such text
gets a leading quote, which spreadsheets show as text. Numbers the site writes itself are not
free text and do not pass through here (a negative score stays a number).
"""

from __future__ import annotations

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def plain(text: str) -> str:
    """Free text as a spreadsheet shows it, never as a formula."""
    return f"'{text}" if text.startswith(FORMULA_STARTS) else text
