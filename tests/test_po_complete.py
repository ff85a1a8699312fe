"""Must hold 3 (issue 15), second half: every .po file of the project has 0 untranslated and 0 fuzzy
entries and its format strings check (msgfmt --check-format --statistics)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_po_files_are_complete() -> None:
    msgfmt = shutil.which("msgfmt")
    assert msgfmt, "msgfmt (gettext) is missing: run `make setup`"
    files = sorted(p for p in ROOT.glob("**/locale/*/LC_MESSAGES/*.po") if ".venv" not in p.parts)
    assert len(files) >= 6
    for po in files:
        out = subprocess.run(
            [msgfmt, "--check-format", "--statistics", "-o", "/dev/null", str(po)],
            capture_output=True,
            text=True,
            check=True,
        ).stderr
        assert "untranslated" not in out and "fuzzy" not in out, f"{po}: {out.strip()}"
        assert "translated message" in out, f"{po}: {out.strip()}"


def test_no_translation_is_written_twice() -> None:
    """A one-line msgstr followed by continuation strings joins them: an English page showed
    "Each answer is saved ... still here.Each answer is saved ... still here." (a merge leftover)."""
    files = sorted(p for p in ROOT.glob("**/locale/*/LC_MESSAGES/*.po") if ".venv" not in p.parts)
    doubled = []
    for po in files:
        lines = po.read_text().split("\n")
        for i, line in enumerate(lines[:-1], start=1):
            if line.startswith('msgstr "') and line != 'msgstr ""' and lines[i].startswith('"'):
                doubled.append(f"{po.relative_to(ROOT)}:{i}")
    assert not doubled, doubled


def _msgid(entry: str) -> str:
    """The msgid of one msgcat entry, its continuation lines joined (with its context, if any)."""
    head = entry.split("\nmsgstr", 1)[0]
    parts = re.findall(r'^(?:msgctxt|msgid) (".*")$|^(".*")$', head, flags=re.M)
    return "".join(a or b for a, b in parts).replace('""', "")


def test_one_translation_per_message_across_catalogs() -> None:
    """Django merges LOCALE_PATHS and every app's catalog into one, so a msgid that two catalogs
    translate differently reads one way on every page: the flag queue's 提交 column said "Submit"
    and a quiz's 说明 field "Message". A message that means two things gets a context
    (pgettext); msgcat marks any msgid translated two ways with #-#-#-#-# lines."""
    msgcat = shutil.which("msgcat")
    assert msgcat, "msgcat (gettext) is missing: run `make setup`"
    files = sorted(
        str(p) for p in ROOT.glob("**/locale/en/LC_MESSAGES/*.po") if ".venv" not in p.parts
    )
    merged = subprocess.run(
        [msgcat, "-o", "-", *files], capture_output=True, text=True, check=True
    ).stdout
    conflicts = [_msgid(entry) for entry in merged.split("\n\n") if "#-#-#-#-#" in entry]
    conflicts = [c for c in conflicts if c]  # the header (msgid ""): each catalog has its own
    assert not conflicts, f"{len(conflicts)} msgids translated two ways: {conflicts[:20]}"
