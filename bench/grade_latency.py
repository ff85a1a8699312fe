"""Latency of grading vector-add on the CPU path: sandboxed runner vs the same check bare.

    .venv/bin/python bench/grade_latency.py [--runs 10]

Measured side by side in one run (medians of --runs jobs, each job graded from scratch):
  sandbox-warm  grade() through bwrap with the warm pool (pool refilled between jobs, as on an
                idle worker)
  sandbox-cold  grade() with the pool off (bwrap + interpreter start + torch import per job)
  bare-process  the same check in a fresh plain subprocess: no sandbox, torch/triton imported,
                inputs, reference, student module import, 3 test cases, comparison
  bare-inproc   the same check inside this already-warm process (lower bound, no process at all)
Must hold 7 compares sandbox-warm with bare-process (a process per job in both).
"""

from __future__ import annotations

import os

os.environ.setdefault("TRITON_INTERPRET", "1")  # before triton is imported (bare checks)

import argparse
import importlib.util
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SOLUTION = ROOT / "gradinglab" / "problems" / "vector-add" / "solutions" / "triton" / "correct.py"


def bare_check(path: Path, tag: str) -> bool:
    """Everything grade() checks, without the sandbox: returns True when all tests pass."""
    import torch

    from gradinglab.runner import load_problem, triton_guard
    from gradinglab.runner.compare import compare, inputs_unchanged
    from gradinglab.runner.grader import build_cases

    triton_guard.install()
    problem = load_problem("vector-add")
    ref = problem.reference_module()
    cases, jobs = build_cases(problem, ref, "triton", 12345, torch.device("cpu"))
    spec = importlib.util.spec_from_file_location(f"submission_{tag}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    entry = getattr(module, problem.entry_name)
    ok = True
    for case, job in zip(cases, jobs, strict=True):
        inputs = {k: v.clone() for k, v in job["inputs"].items()}
        outputs = {k: v.clone() for k, v in job["outputs"].items()}
        args = [
            inputs[v] if kind == "in" else outputs[v] if kind == "out" else v
            for kind, v in job["args"]
        ]
        entry(*args)
        for key, expected in case["expected"].items():
            ok &= compare(key, outputs[key], expected, *case["tol"]).passed
        ok &= inputs_unchanged(case["inputs"], inputs) is None
    return ok


def _wait_for_spare(timeout_s: float = 120.0) -> None:
    from gradinglab.runner import pool

    p = pool.get_pool(None)
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with p._lock:
            if p._idle and not p._refilling:
                return
        time.sleep(0.05)


def measure(runs: int) -> dict[str, list[float]]:
    from gradinglab.runner import grade, pool

    source = SOLUTION.read_text()
    out: dict[str, list[float]] = {
        k: [] for k in ("sandbox-warm", "sandbox-cold", "bare-process", "bare-inproc")
    }
    bare_check(SOLUTION, "warmup")  # warm this process for the in-process lower bound
    pool.configure(1)
    pool.warm_up()
    for i in range(runs):
        _wait_for_spare()
        t = time.perf_counter()
        doc = grade(slug="vector-add", source=source, backend="triton", device="cpu")
        out["sandbox-warm"].append(time.perf_counter() - t)
        assert doc["status"] == "accepted", doc["message"]

        t = time.perf_counter()
        r = subprocess.run(
            [sys.executable, __file__, "--bare-once"], capture_output=True, text=True
        )
        out["bare-process"].append(time.perf_counter() - t)
        assert r.returncode == 0, r.stderr[-2000:]

        t = time.perf_counter()
        assert bare_check(SOLUTION, f"r{i}")
        out["bare-inproc"].append(time.perf_counter() - t)
    pool.configure(0)
    for _ in range(runs):
        t = time.perf_counter()
        doc = grade(slug="vector-add", source=source, backend="triton", device="cpu")
        out["sandbox-cold"].append(time.perf_counter() - t)
        assert doc["status"] == "accepted", doc["message"]
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--bare-once", action="store_true")
    args = parser.parse_args()
    if args.bare_once:
        return 0 if bare_check(SOLUTION, "once") else 1
    res = measure(args.runs)
    med = {k: statistics.median(v) for k, v in res.items()}
    print(f"runs per variant: {args.runs}; median wall seconds per graded job")
    for k, v in med.items():
        print(
            f"  {k:<13} {v * 1000:8.1f} ms   (min {min(res[k]) * 1000:.1f}, max {max(res[k]) * 1000:.1f})"
        )
    print(
        f"  ratio sandbox-warm / bare-process = {med['sandbox-warm'] / med['bare-process']:.2f}x"
        "  (target <= 1.3x)"
    )
    print(f"  ratio sandbox-warm / bare-inproc  = {med['sandbox-warm'] / med['bare-inproc']:.2f}x")
    print(f"  ratio sandbox-cold / bare-process = {med['sandbox-cold'] / med['bare-process']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
