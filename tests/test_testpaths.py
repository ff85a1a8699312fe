"""Every folder that holds tests is one `make test` collects: pyproject's testpaths lists them all.

The similarity and flag-review apps' own tests were left out of testpaths when those apps were
added, so `make test` never ran them; this fails for the next app that is."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", "var", "node_modules", ".git"}


def test_every_test_folder_is_in_testpaths() -> None:
    testpaths = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"][
        "ini_options"
    ]["testpaths"]
    found = {
        path.relative_to(ROOT).parts[0]
        for path in ROOT.rglob("test_*.py")
        if not SKIP & set(path.relative_to(ROOT).parts)
    }
    assert found, "no test files found"
    assert found <= set(testpaths), f"not collected by make test: {sorted(found - set(testpaths))}"
