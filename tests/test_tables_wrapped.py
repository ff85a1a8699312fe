"""Every table of the site's pages sits in a `.table-wrap` (site.css), so a table wider than a phone
scrolls inside its wrapper and never the page: a quiz's table of my attempts, with no wrapper, made
its page 430 px wide at 390. The admin's own templates follow Django's layout and are left out."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WRAP = 'class="table-wrap"'


def _unwrapped(text: str) -> list[int]:
    """Line numbers of the tables not inside a wrapper opened before them and not yet closed."""
    lines = []
    for match in re.finditer(r"<table\b", text):
        before = text[: match.start()]
        opened = before.rfind(WRAP)
        between = before[opened:] if opened >= 0 else ""
        if opened < 0 or "</div>" in between or "</table>" in between:
            lines.append(before.count("\n") + 1)
    return lines


def test_the_check_sees_a_table_without_its_wrapper() -> None:
    assert _unwrapped('<div class="table-wrap"><table></table></div>') == []
    assert _unwrapped('<div class="table-wrap"><table></table></div>\n<table>') == [2]
    assert _unwrapped("<div><table>") == [1]


def test_every_table_of_the_site_is_in_a_wrapper() -> None:
    files = subprocess.run(
        ["git", "ls-files", "*.html"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    pages = [f for f in files if "/admin/" not in f and not f.startswith("templates/admin/")]
    found = {f: _unwrapped((ROOT / f).read_text()) for f in pages}
    assert len(pages) > 50
    assert {f: lines for f, lines in found.items() if lines} == {}
