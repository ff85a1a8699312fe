"""docs/lab.md's picture of the grading path matches the modules (issue 18, must hold 4).

The picture is the map a new developer reads first, so it must not name a module or a function
that has moved, and every module of the two packages the path runs through (gradinglab/worker/,
gradinglab/services/) must be on it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "lab.md"
HEADING = "## The grading path, module by module"
# The packages the grading path runs through: each of their modules has a place in the picture.
PATH_PACKAGES = ("gradinglab/worker", "gradinglab/services")
# Package plumbing, not a step of the path.
PLUMBING = {"__init__.py", "__main__.py"}


def picture() -> str:
    """The fenced block under the heading."""
    text = DOC.read_text(encoding="utf-8")
    after = text.split(HEADING, 1)[1]
    return after.split("```", 2)[1]


def named_paths(block: str) -> set[str]:
    """`worker/celery.py`, `services/results.py`, `accounts/access.py`, `runner/`,
    `worker/queues.queue_for` (a module named with a function of it) as written."""
    files = set(re.findall(r"(?<![\w/.])((?:[a-z_]+/)*[a-z_]+\.py)\b", block))
    dirs = set(re.findall(r"(?<![\w/.])([a-z_]+/)(?=\s)", block))
    dotted = {f"{m}.py" for m in re.findall(r"(?<![\w/.])([a-z_]+/[a-z_]+)\.[a-z_]+", block)}
    return files | dirs | dotted


def resolve(path: str) -> Path | None:
    """A path of the picture: from the repository root, else from gradinglab/."""
    for base in (ROOT, ROOT / "gradinglab"):
        if (base / path).exists():
            return base / path
    return None


def named_functions(block: str) -> set[str]:
    """Every `name()`, `module.name` and snake_case word that is not part of a file name."""
    without_files = re.sub(r"[\w/]+\.py\b", " ", block)
    called = set(re.findall(r"\b([a-z_][a-z0-9_]*)\(", without_files))
    attributes = set(re.findall(r"\b[a-z_]+\.([a-z_][a-z0-9_]*)", without_files))
    snake = set(re.findall(r"\b([a-z]+_[a-z0-9_]+)\b", without_files))
    return called | attributes | snake


def defined_names() -> set[str]:
    """The names of the project's modules and packages (`gradebook.services`), and the top-level
    functions, classes and assignments of the web app's and the grading host's code."""
    names = {p.stem for p in ROOT.glob("*/*.py")} | {
        p.parent.name for p in ROOT.glob("*/*/__init__.py")
    }
    for path in (ROOT / "gradinglab").rglob("*.py"):
        if {"tests", "problems", "migrations"}.intersection(path.parts):
            continue
        names.add(path.stem)
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names


def test_every_path_in_the_picture_exists() -> None:
    missing = sorted(p for p in named_paths(picture()) if resolve(p) is None)
    assert missing == []


def test_every_function_in_the_picture_is_defined() -> None:
    names = named_functions(picture())
    assert {"job_dispatch", "make_payload", "queue_for", "register"} <= names  # the parser reads it
    assert sorted(names - defined_names()) == []


def test_every_module_of_the_path_packages_is_in_the_picture() -> None:
    shown = {str(found) for found in map(resolve, named_paths(picture())) if found is not None}
    modules = [
        path
        for package in PATH_PACKAGES
        for path in sorted((ROOT / package).glob("*.py"))
        if path.name not in PLUMBING
    ]
    assert modules, PATH_PACKAGES
    assert [str(m.relative_to(ROOT)) for m in modules if str(m) not in shown] == []
