"""Helpers for the runner's tests and benchmarks (no pytest import here)."""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

from .problems import PROBLEMS_DIR, problems_dir


def problem_copy(dest_root: Path, slug: str, **overrides: Any) -> Path:
    """Copy a problem package under dest_root with problem.yaml fields overridden (e.g. limits).

    Point PDC_PROBLEMS_DIR at the returned directory to grade against the copy.
    """
    dest = dest_root / slug
    shutil.copytree(problems_dir() / slug, dest, ignore=shutil.ignore_patterns("solutions"))
    data = yaml.safe_load((dest / "problem.yaml").read_text(encoding="utf-8"))
    data.update(overrides)
    (dest / "problem.yaml").write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return dest_root


@contextlib.contextmanager
def problems_dir_override(root: Path) -> Iterator[Path]:
    """PDC_PROBLEMS_DIR points at `root` inside the block (process-wide), as it was after."""
    old = os.environ.get("PDC_PROBLEMS_DIR")
    os.environ["PDC_PROBLEMS_DIR"] = str(root)
    try:
        yield root
    finally:
        if old is None:
            os.environ.pop("PDC_PROBLEMS_DIR", None)
        else:
            os.environ["PDC_PROBLEMS_DIR"] = old


def solution(slug: str, backend: str, name: str) -> str:
    """A reference solution from the repository's packages (never from an override dir)."""
    return (PROBLEMS_DIR / slug / "solutions" / backend / name).read_text(encoding="utf-8")


# A folder the test session's processes share (the root conftest sets it for each pytest run):
# there the first xdist worker to grade a solution leaves its document for the others.
SHARED_GRADED_ENV = "PDC_TEST_GRADED_DIR"


@functools.cache
def graded_solution(slug: str, backend: str, name: str) -> dict[str, Any]:
    """Grade a repository solution on the CPU path once per test session (tests share it): once
    per process, and with SHARED_GRADED_ENV set once for all the session's xdist workers (each
    job starts a sandbox that imports torch: test_solutions.py and three other files grade some
    of the same solutions, and a worker that wants one being graded waits for that one).

    Callers must not mutate the returned document.
    """
    from . import grade

    def graded() -> dict[str, Any]:
        src = solution(slug, backend, name)
        return grade(slug=slug, source=src, backend=backend, device="cpu")

    shared = os.environ.get(SHARED_GRADED_ENV)
    if not shared or os.environ.get("PDC_PROBLEMS_DIR"):  # only the repository's packages
        return graded()
    path = Path(shared) / f"{slug}--{backend}--{name}.json"
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if path.is_file():
            return json.loads(path.read_text(encoding="utf-8"))
        doc = graded()
        part = path.with_suffix(".part")
        part.write_text(json.dumps(doc), encoding="utf-8")
        part.replace(path)
        return doc


def table_device(name: str, peak_gbps: float, peak_tflops: float = 67.0) -> dict[str, Any]:
    """A result document's `device` for a GPU whose peaks came from runner/devices.py's table."""
    return {
        "kind": "cuda",
        "name": name,
        "peak_gbps": peak_gbps,
        "peak_tflops": peak_tflops,
        "peak_source": "table",
    }
