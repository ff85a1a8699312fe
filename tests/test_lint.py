"""ruff (pinned in requirements/dev.txt) is clean over the tree: lint rules and formatting.

`make lint` says the same, but nothing ran it on every change, and two unformatted files once
landed unnoticed; as a test it runs with the suite, on CI too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    "args", [["check", "."], ["format", "--check", "."]], ids=["check", "format"]
)
def test_ruff_is_clean(args: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *args, "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
