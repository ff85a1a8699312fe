"""Problem packages on disk: `gradinglab/problems/<slug>/problem.yaml` plus reference and starters.

Pure Python (no Django): workers import this without a database.
"""

from __future__ import annotations

import ast
import importlib.util
import operator
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import yaml

from .yamlkeys import load_unique

PROBLEMS_DIR = Path(__file__).resolve().parent.parent / "problems"
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
BACKENDS = ("triton", "cuda")
DTYPES = ("float32", "float16", "bfloat16", "float64", "int32", "int64", "uint8")
# What may limit a problem's kernel; gradinglab.models.Problem.Bound names each one for pages.
BOUNDS = ("memory", "compute")


class ProblemNotFound(LookupError):
    """No package with that slug (or the slug is malformed)."""


class ProblemInvalid(ValueError):
    """A package exists but its problem.yaml breaks the contract."""


@dataclass(frozen=True)
class TestCase:
    name: str
    shape: dict[str, int]


@dataclass(frozen=True)
class Problem:
    slug: str
    title: dict[str, str]
    statement: dict[str, str]
    sections: list[str]
    backends: list[str]
    entry_point: dict[str, str]
    dtypes: list[str]
    tolerances: dict[str, dict[str, float]]
    tests: list[TestCase]
    benchmarks: list[TestCase]
    cost: dict[str, str]
    bound: str
    scoring: dict[str, float]
    path: Path
    limits: dict[str, float] = field(default_factory=dict)
    schema: int = 1

    @property
    def entry_name(self) -> str:
        return self.entry_point["name"]

    def starter_path(self, backend: str) -> Path:
        return self.path / ("starter.py" if backend == "triton" else "starter.cu")

    def starter(self, backend: str) -> str:
        return self.starter_path(backend).read_text(encoding="utf-8")

    def cuda_dtype(self) -> str:
        """dtype CUDA is tested with: the first listed, unless the signature names __half."""
        sig = self.entry_point.get("cuda", "")
        if "__half" in sig or "half*" in sig:
            return "float16"
        return self.dtypes[0]

    def tolerance(self, dtype: str) -> tuple[float, float]:
        tol = self.tolerances.get(dtype) or {"atol": 1e-5, "rtol": 1e-5}
        return float(tol["atol"]), float(tol["rtol"])

    def reference_module(self) -> ModuleType:
        """Import reference.py (trusted side only; never shipped into the sandbox)."""
        return _import_file(
            self.path / "reference.py", f"pdc_problem_ref_{self.slug.replace('-', '_')}"
        )


def _import_file(path: Path, name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ProblemInvalid(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def problems_dir() -> Path:
    # An override lets tests and deployments point at another tree; default is the repo's.
    return Path(os.environ.get("PDC_PROBLEMS_DIR") or PROBLEMS_DIR)


def list_problems() -> list[Problem]:
    root = problems_dir()
    if not root.is_dir():
        return []
    slugs = sorted(p.name for p in root.iterdir() if (p / "problem.yaml").is_file())
    return [load_problem(slug) for slug in slugs]


_CACHE: dict[tuple[str, float], Problem] = {}


def load_problem(slug: str) -> Problem:
    if not isinstance(slug, str) or not SLUG_RE.match(slug):
        raise ProblemNotFound(f"no problem named {slug!r}")
    path = problems_dir() / slug
    yaml_path = path / "problem.yaml"
    if not yaml_path.is_file():
        raise ProblemNotFound(f"no problem named {slug!r}")
    key = (str(yaml_path), yaml_path.stat().st_mtime)
    if key not in _CACHE:
        _CACHE[key] = _parse(slug, path, _read_yaml(slug, yaml_path))
    return _CACHE[key]


def _read_yaml(slug: str, path: Path) -> Any:
    """problem.yaml's document, or ProblemInvalid: the sync reports that package and goes on to
    the next (a YAML error stopped the whole sync). A key written twice is refused with its line:
    YAML kept the last value silently (a second `tests:` dropped the first list of cases)."""
    try:
        return load_unique(path.read_text(encoding="utf-8"))
    except (yaml.YAMLError, UnicodeDecodeError) as exc:
        raise ProblemInvalid(f"{slug}: problem.yaml: {exc}") from exc


def _cases(raw: Any, what: str) -> list[TestCase]:
    if not isinstance(raw, list):
        raise ProblemInvalid(f"{what} must be a list")
    out = []
    for item in raw:
        shape = item.get("shape") if isinstance(item, dict) else None
        if not isinstance(shape, dict) or not all(isinstance(v, int) for v in shape.values()):
            raise ProblemInvalid(f"{what}: each case needs name and an int shape dict")
        out.append(TestCase(name=str(item["name"]), shape=dict(shape)))
    return out


# Correctness is checked on at least a small shape and an awkward one; pages also say "all N
# tests passed" with N >= 2 (tests/test_english_plurals.py, NEVER_ONE).
MIN_TESTS = 2


def _tests(raw: Any, slug: str) -> list[TestCase]:
    tests = _cases(raw, f"{slug}: tests")
    if len(tests) < MIN_TESTS:
        raise ProblemInvalid(f"{slug}: tests must list at least {MIN_TESTS} cases")
    return tests


def _parse(slug: str, path: Path, data: Any) -> Problem:
    if not isinstance(data, dict):
        raise ProblemInvalid(f"{slug}: problem.yaml is not a mapping")
    if data.get("slug") != slug:
        raise ProblemInvalid(f"{slug}: slug field {data.get('slug')!r} differs from directory")
    backends = list(data.get("backends") or [])
    if not backends or any(b not in BACKENDS for b in backends):
        raise ProblemInvalid(f"{slug}: backends must be a non-empty subset of {BACKENDS}")
    dtypes = list(data.get("dtypes") or ["float32"])
    if any(d not in DTYPES for d in dtypes):
        raise ProblemInvalid(f"{slug}: unknown dtype in {dtypes}")
    entry = dict(data.get("entry_point") or {})
    if not entry.get("name") or not str(entry["name"]).isidentifier():
        raise ProblemInvalid(f"{slug}: entry_point.name must be an identifier")
    bound = data.get("bound", "memory")
    if bound not in BOUNDS:
        raise ProblemInvalid(f"{slug}: bound must be one of {', '.join(BOUNDS)}")
    return Problem(
        slug=slug,
        title=dict(data.get("title") or {}),
        statement=dict(data.get("statement") or {}),
        sections=list(data.get("sections") or []),
        backends=backends,
        entry_point=entry,
        dtypes=dtypes,
        tolerances=dict(data.get("tolerances") or {}),
        tests=_tests(data.get("tests") or [], slug),
        benchmarks=_cases(data.get("benchmarks") or [], f"{slug}: benchmarks"),
        cost=dict(data.get("cost") or {}),
        bound=bound,
        scoring=dict(data.get("scoring") or {}),
        limits=dict(data.get("limits") or {}),
        path=path,
        schema=int(data.get("schema", 1)),
    )


# --- cost formulas: "3 * n * elem" evaluated over shape keys, without eval() ---------------------

_BINOPS = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
    ast.Pow: operator.pow,
}
_MAX_EXPONENT = 8  # no 2**10**9 tricks in a yaml formula


def eval_cost(expr: str | int | float, names: dict[str, float]) -> float:
    """Evaluate a cost formula with only numbers, shape names and + - * / // % ** ( )."""
    if isinstance(expr, int | float):
        return float(expr)
    tree = ast.parse(str(expr), mode="eval")
    return float(_eval_node(tree.body, names))


def _eval_node(node: ast.AST, names: dict[str, float]) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.Name):
        if node.id not in names:
            raise ProblemInvalid(f"unknown name {node.id!r} in cost formula")
        return names[node.id]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_eval_node(node.operand, names)
    if isinstance(node, ast.BinOp) and type(node.op) in _BINOPS:
        left, right = _eval_node(node.left, names), _eval_node(node.right, names)
        if isinstance(node.op, ast.Pow) and abs(right) > _MAX_EXPONENT:
            raise ProblemInvalid("exponent too large in cost formula")
        return _BINOPS[type(node.op)](left, right)
    raise ProblemInvalid(f"unsupported syntax in cost formula: {ast.dump(node)[:80]}")


def problem_cost(problem: Problem, shape: dict[str, int], elem_bytes: int) -> dict[str, float]:
    names = {**{k: float(v) for k, v in shape.items()}, "elem": float(elem_bytes)}
    return {key: eval_cost(expr, names) for key, expr in problem.cost.items()}
