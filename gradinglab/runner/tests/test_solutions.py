"""Must hold 1: on the CPU path every correct solution is accepted and every known-wrong solution
gets its expected status -- for EVERY package in gradinglab/problems/ (picked up automatically).

Real sandbox (bwrap), real Triton interpreter, real nvcc. The jobs run two at a time in a module
fixture (2 cores), then one test per solution checks its document.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
import yaml

from gradinglab.runner import grade, list_problems
from gradinglab.runner.problems import PROBLEMS_DIR
from gradinglab.runner.result import validate
from gradinglab.runner.testing import graded_solution

BACKEND_OF = {".py": "triton", ".cu": "cuda"}
PARALLEL_JOBS = 2  # the CI machine has 2 cores


def _expected_cases() -> list[tuple[str, str, str, str]]:
    cases = []
    for pkg in sorted(p for p in PROBLEMS_DIR.iterdir() if (p / "problem.yaml").is_file()):
        exp_file = pkg / "solutions" / "expected.yaml"
        expected = (
            yaml.safe_load(exp_file.read_text(encoding="utf-8")) if exp_file.is_file() else {}
        )
        for backend in ("triton", "cuda"):
            for name, status in (expected.get(backend) or {}).items():
                cases.append((pkg.name, backend, name, status))
    return cases


CASES = _expected_cases()


def _id(case: tuple[str, str, str, str]) -> str:
    return f"{case[0]}/{case[1]}/{case[2]}"


@pytest.fixture(scope="module")
def graded() -> dict[str, dict[str, Any]]:
    def run(case: tuple[str, str, str, str]) -> tuple[str, dict[str, Any]]:
        slug, backend, name, _ = case
        return _id(case), graded_solution(slug, backend, name)

    def starter(slug: str) -> tuple[str, dict[str, Any]]:
        src = (PROBLEMS_DIR / slug / "starter.py").read_text(encoding="utf-8")
        return f"starter/{slug}", grade(slug=slug, source=src, backend="triton", device="cpu")

    starters = [p.slug for p in list_problems() if "triton" in p.backends]
    with ThreadPoolExecutor(max_workers=PARALLEL_JOBS) as ex:
        done = dict(ex.map(run, CASES))
        done.update(ex.map(starter, starters))
    return done


def test_every_package_has_correct_and_wrong_solutions_per_backend() -> None:
    for problem in list_problems():
        exp_file = problem.path / "solutions" / "expected.yaml"
        assert exp_file.is_file(), f"{problem.slug}: no solutions/expected.yaml"
        expected = yaml.safe_load(exp_file.read_text(encoding="utf-8"))
        for backend in problem.backends:
            statuses = list((expected.get(backend) or {}).values())
            good = "accepted" if backend == "triton" else "needs_gpu"
            assert good in statuses, f"{problem.slug}/{backend}: no correct solution"
            wrong = [s for s in statuses if s not in ("accepted", "needs_gpu")]
            assert wrong, f"{problem.slug}/{backend}: no known-wrong solution"
            for name in expected.get(backend) or {}:
                path = problem.path / "solutions" / backend / name
                assert path.is_file(), f"expected.yaml names a missing file {path}"
                assert BACKEND_OF[Path(name).suffix] == backend


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_solution_gets_expected_status(case: tuple[str, str, str, str], graded: dict) -> None:
    doc = graded[_id(case)]
    validate(doc)
    assert doc["status"] == case[3], (
        f"{_id(case)}: {doc['status']}: {doc['message']}\n{doc['log'][-1500:]}"
    )
    if doc["status"] == "accepted":
        assert doc["tests"] and all(t["passed"] for t in doc["tests"])
    if doc["status"] == "needs_gpu":  # never a fake pass; CUDA: compiled for real
        assert doc["score"] is None
        assert case[1] == "triton" or doc["compile"]["ok"]


def test_starters_are_not_accepted(graded: dict) -> None:
    """A starter with its TODOs left must not pass (the NaN-filled outputs catch 'did nothing')."""
    starters = {k: v for k, v in graded.items() if k.startswith("starter/")}
    assert "starter/vector-add" in starters
    for key, doc in starters.items():
        validate(doc)
        assert doc["status"] not in ("accepted", "infrastructure_error"), (key, doc["message"])
