"""One way to write a date-time as text (pdcsite.moments): in the current time zone, to the minute,
for pages (the `when` filter), CSV files and messages alike."""

from __future__ import annotations

import re
import subprocess
from datetime import UTC, datetime
from pathlib import Path

import pytest
from django.template import Context, Template
from django.utils import timezone, translation

from pdcsite.moments import local_text

ROOT = Path(__file__).resolve().parents[2]
MOMENT = datetime(2026, 12, 20, 15, 59, 30, tzinfo=UTC)  # 23:59:30 in Asia/Shanghai


def test_local_text_is_the_current_time_zone_to_the_minute() -> None:
    with timezone.override("Asia/Shanghai"):
        assert local_text(MOMENT) == "2026-12-20 23:59"
        assert local_text(MOMENT, seconds=True) == "2026-12-20 23:59:30"
    with timezone.override("UTC"):
        assert local_text(MOMENT) == "2026-12-20 15:59"
    assert local_text(None) == ""


def test_the_when_filter_shows_the_same_text() -> None:
    page = Template("{% load ui_tags %}{{ m|when }}|{{ none|when }}")
    with timezone.override("Asia/Shanghai"), translation.override("en"):
        out = page.render(Context({"m": MOMENT, "none": None}))
    assert ">2026-12-20 23:59</time>|—" in out


def test_the_forms_of_a_date_time() -> None:
    """A list of this term's work leaves out the year; a submission's time names the second."""
    page = Template(
        '{% load ui_tags %}{{ m|when:"short" }}|{{ m|when:"seconds" }}|{{ m|when:"short seconds" }}'
        '|{{ m|when_text:"short" }}|{{ none|when_text }}'
    )
    with timezone.override("Asia/Shanghai"):
        out = page.render(Context({"m": MOMENT, "none": None}))
        assert local_text(MOMENT, year=False) == "12-20 23:59"
    shown = re.findall(r">([^<>|]+)</time>", out)
    assert shown == ["12-20 23:59", "2026-12-20 23:59:30", "12-20 23:59:30"], out
    assert out.endswith("|12-20 23:59|—"), out  # text only, for an <option>
    with pytest.raises(ValueError, match="unknown date-time form"):
        Template('{% load ui_tags %}{{ m|when:"shrot" }}').render(Context({"m": MOMENT}))


def test_no_other_module_or_template_spells_a_date_time_format() -> None:
    """Pages wrote "m-d H:i" and "Y-m-d H:i:s" by hand in 13 places; they use the forms above."""
    files = subprocess.run(
        ["git", "ls-files", "*.py", "*.html"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    spelled = re.compile(r"%Y-%m-%d %H:%M|%m-%d %H:%M|date:[\"']\w?-?m-d H:i")
    skip = ("pdcsite/moments.py", "bench/")
    found = [
        f
        for f in files
        if not f.startswith(skip) and "/tests/" not in f and spelled.search((ROOT / f).read_text())
    ]
    assert found == []
