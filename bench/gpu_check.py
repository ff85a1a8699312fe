"""GPU acceptance run of the grading runner (issue 12 must-hold 3); `bench/gpu_check.sh` calls it.

    .venv/bin/python bench/gpu_check.py [--out DIR]            # on a CUDA host
    .venv/bin/python bench/gpu_check.py --dry-run [--out DIR]  # anywhere: plan, budget, reports

1. grades every solution and every exploit of every package on the GPU path and compares each
   status with its GPU expectation (solutions: expected.yaml's `gpu:` map, else accepted for
   correct.* and the CPU status for compile errors / wrong answers; exploits: `expect_gpu`, else
   `expect`); an exploit marked `pending` that wins is reported "not yet defended", not failed;
2. grades vector-add/triton/correct.py 10 more times: the spread (CV) of its medians;
3. times the same kernel with triton.testing.do_bench in this process and compares the medians;
4. an add kernel's achieved GB/s (do_bench, 3 x 512 MiB) as a share of the device's peak.
Writes DIR/gpu_check.json and DIR/gpu_check.md.

Designed to finish under 8 minutes on one H200: the per-benchmark timing budget is chosen from the
plan (`timing_budget`) so that the estimate stays under TOTAL_BUDGET_S, and passed to the runner as
PDC_RUNNER_TIMING_BUDGET_S. `--dry-run` runs all of that logic without a GPU (a stand-in grade
returns the expected status): it checks the plan, the budget and the report writers, nothing else.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from gradinglab.runner import list_problems  # noqa: E402
from gradinglab.runner.problems import Problem  # noqa: E402

TOTAL_BUDGET_S = 420.0  # of the 8-minute target: 1 min left for startup and the GPU pytest module
# Seconds a job costs besides its timed loop (estimates for one H200 host, warm pool).
JOB_FIXED_S = {"triton": 2.0, "cuda": 4.0}  # JIT or nvcc, the tests, the trusted checks
REFERENCE_S = 0.5  # the trusted side times the PyTorch reference once per benchmark (capped)
PARALLEL = 8  # untimed jobs at once (16 cores on the H200 host; timed jobs run alone)
MIN_BUDGET_S, MAX_BUDGET_S = 0.3, 10.0
REPEATS = 10
REPEAT_JOB = ("vector-add", "triton", "solutions/triton/correct.py")
ADD_N = 1 << 27  # floats per tensor: 3 x 512 MiB, far beyond any L2


@dataclass
class Job:
    problem: str
    backend: str
    file: str  # inside the package
    kind: str  # solution | exploit
    want: str | None  # None: reported, not judged (a GPU may not notice an OOB read)
    pending: str = ""
    timed_benchmarks: int = 0  # benchmark x dtype runs if it is accepted


@dataclass
class Row:
    job: Job
    status: str = ""
    outcome: str = ""  # ok | mismatch | not_defended | reported
    median_ms: float | None = None
    cv: float | None = None
    gbps: float | None = None
    roofline: float | None = None
    flags: list[str] = field(default_factory=list)
    message: str = ""
    log_tail: str = ""  # kept for rows that are not "ok": what the first GPU runs need to debug
    seconds: float = 0.0


def _yaml(path: Path) -> dict[str, Any]:
    return (yaml.safe_load(path.read_text(encoding="utf-8")) or {}) if path.is_file() else {}


def _timed_runs(problem: Problem, backend: str) -> int:
    dtypes = 1 if backend == "cuda" else len(problem.dtypes)
    return len(problem.benchmarks) * dtypes


def _solution_want(name: str, cpu: str, gpu: str | None) -> str | None:
    if gpu is not None:
        return gpu
    if name.startswith("correct") and cpu in ("accepted", "needs_gpu"):
        return "accepted"
    return cpu if cpu in ("compile_error", "wrong_answer") else None


def plan() -> list[Job]:
    jobs = []
    for problem in list_problems():
        exp = _yaml(problem.path / "solutions" / "expected.yaml")
        for backend in problem.backends:
            gpu = (exp.get("gpu") or {}).get(backend) or {}
            for name, cpu in (exp.get(backend) or {}).items():
                want = _solution_want(name, cpu, gpu.get(name))
                jobs.append(
                    Job(problem.slug, backend, f"solutions/{backend}/{name}", "solution", want)
                )
        manifest = _yaml(problem.path / "exploits" / "manifest.yaml").get("exploits") or {}
        for name, meta in manifest.items():
            want = meta.get("expect_gpu") or meta["expect"]
            jobs.append(
                Job(
                    problem.slug, meta["backend"], f"exploits/{name}", "exploit", want,
                    pending=str(meta.get("pending") or ""),
                )
            )  # fmt: skip
        for job in jobs:
            if job.problem == problem.slug and job.want == "accepted":
                job.timed_benchmarks = _timed_runs(problem, job.backend)
    return jobs


def timing_budget(jobs: list[Job], total_s: float = TOTAL_BUDGET_S) -> tuple[float, float]:
    """(seconds of timed loop per benchmark run, estimated total seconds of the whole check).

    Jobs not expected to be accepted never reach the timed loop: they run PARALLEL at a time
    (compile, JIT and small tests are CPU work). Jobs expected accepted run one at a time, so
    that no two timed loops share the GPU."""
    untimed = [j for j in jobs if not j.timed_benchmarks]
    timed_jobs = [j for j in jobs if j.timed_benchmarks]
    phase1 = sum(JOB_FIXED_S[j.backend] for j in untimed) / PARALLEL
    repeat_runs = next((j.timed_benchmarks for j in jobs if _is_repeat(j)), 1)
    timed = sum(j.timed_benchmarks for j in timed_jobs) + REPEATS * repeat_runs
    fixed = sum(JOB_FIXED_S[j.backend] for j in timed_jobs) + REPEATS * JOB_FIXED_S["triton"]
    fixed += REFERENCE_S * timed + 30.0  # do_bench comparison and the add kernel
    budget = (total_s - phase1 - fixed) / max(1, timed)
    budget = min(MAX_BUDGET_S, max(MIN_BUDGET_S, budget))
    return budget, phase1 + fixed + budget * timed


def _is_repeat(job: Job) -> bool:
    return (job.problem, job.backend, job.file) == REPEAT_JOB


def judge(job: Job, status: str) -> str:
    if job.want is None:
        return "reported"
    if status == job.want:
        return "ok"
    return "not_defended" if job.pending else "mismatch"


GradeFn = Callable[[Job], dict[str, Any]]
LOG_TAIL = 3000  # characters of a not-ok job's log kept in the report
STREAM: Path | None = None  # DIR/gpu_check_rows.jsonl once main() has set it
STREAM_LOCK = threading.Lock()


def _run_one(job: Job, grade_fn: GradeFn) -> Row:
    started = time.monotonic()
    doc = grade_fn(job)
    timing = doc.get("timing") or {}
    row = Row(
        job,
        status=doc["status"],
        median_ms=timing.get("median_ms"),
        cv=timing.get("cv"),
        gbps=timing.get("gbps"),
        roofline=timing.get("roofline_fraction"),
        flags=list(doc.get("flags") or []),
        message=str(doc.get("message", ""))[:200],
        seconds=round(time.monotonic() - started, 2),
    )
    row.outcome = judge(job, row.status)
    if row.outcome != "ok":
        row.log_tail = str(doc.get("log") or "")[-LOG_TAIL:]
    if STREAM is not None:  # one line per finished job: a run cut short still leaves its rows
        with STREAM_LOCK, STREAM.open("a", encoding="utf-8") as fh:
            fh.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
    print(f"{row.outcome:12s} {job.problem}/{job.file}: {row.status} ({row.seconds} s)", flush=True)
    return row


def run_jobs(jobs: list[Job], grade_fn: GradeFn, *, timed_first: bool = False) -> list[Row]:
    """Untimed jobs PARALLEL at a time, timed ones alone; rows in plan order. Untimed first by
    default; `timed_first` when the run may be cut short and the timings matter most."""
    from concurrent.futures import ThreadPoolExecutor

    done: dict[int, Row] = {}
    untimed = [i for i, j in enumerate(jobs) if not j.timed_benchmarks]

    def run_untimed() -> None:
        with ThreadPoolExecutor(max_workers=PARALLEL) as ex:
            for i, row in zip(
                untimed, ex.map(lambda i: _run_one(jobs[i], grade_fn), untimed), strict=True
            ):
                done[i] = row

    if not timed_first:
        run_untimed()
    for i, job in enumerate(jobs):
        if job.timed_benchmarks:
            done[i] = _run_one(job, grade_fn)
    if timed_first:
        run_untimed()
    return [done[i] for i in range(len(jobs))]


def repeat_spread(medians: list[float]) -> dict[str, Any]:
    clean = [m for m in medians if m is not None and math.isfinite(m)]
    if len(clean) < 2:
        return {"medians_ms": medians, "cv": None, "spread_pct": None}
    mean = statistics.fmean(clean)
    return {
        "medians_ms": medians,
        "cv": statistics.stdev(clean) / mean,
        "spread_pct": 100 * (max(clean) - min(clean)) / statistics.median(clean),
    }


def markdown(report: dict[str, Any]) -> str:
    lines = [
        f"# GPU check — {report['device']}{' (DRY RUN: no GPU, stand-in grades)' if report['dry_run'] else ''}",
        "",
        f"{len(report['rows'])} jobs, {report['mismatches']} mismatches, "
        f"{report['not_defended']} not yet defended; timing budget "
        f"{report['budget_s']:.2f} s per benchmark; estimated {report['estimate_s']:.0f} s, "
        f"took {report['wall_s']:.0f} s.",
        "",
        "| problem | file | want | got | outcome | median ms | CV | GB/s | roofline | flags |",
        "|---|---|---|---|---|---:|---:|---:|---:|---|",
    ]
    for r in report["rows"]:
        job = r["job"]
        lines.append(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |".format(
                job["problem"], job["file"], job["want"] or "—", r["status"], r["outcome"],
                _num(r["median_ms"], 4), _num(r["cv"], 4), _num(r["gbps"], 1),
                _num(r["roofline"], 3), len(r["flags"]),
            )
        )  # fmt: skip
    rep, cmp, add = report["repeat"], report["do_bench"], report["add_kernel"]
    lines += [
        "",
        f"Repeat ({len(rep['medians_ms'])}x {'/'.join(REPEAT_JOB)}): CV of medians {_num(rep['cv'], 4)}, "
        f"spread {_num(rep['spread_pct'], 2)} %.",
        f"do_bench vs runner (vector-add n=2^24): {_num(cmp['do_bench_median_ms'], 4)} ms vs "
        f"{_num(cmp['runner_median_ms'], 4)} ms (ratio {_num(cmp['ratio'], 3)}).",
        f"Add kernel, 3 x {ADD_N * 4 >> 20} MiB: {_num(add['gbps'], 1)} GB/s = "
        f"{_num(add['share_of_peak'], 3)} of the {_num(add['peak_gbps'], 0)} GB/s peak.",
    ]
    return "\n".join(lines) + "\n"


def _num(value: Any, digits: int) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


# --- GPU and stand-in implementations -----------------------------------------------------------


def gpu_grade(job: Job) -> dict[str, Any]:
    from gradinglab.runner import grade

    source = (ROOT / "gradinglab" / "problems" / job.problem / job.file).read_text()
    return grade(slug=job.problem, source=source, backend=job.backend)


def gpu_do_bench_and_add() -> tuple[dict[str, Any], dict[str, Any], str]:
    import importlib.util

    import torch
    import triton.testing

    from gradinglab.runner import devices

    spec = importlib.util.spec_from_file_location(
        "va", ROOT / "gradinglab/problems/vector-add/solutions/triton/correct.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    name = torch.cuda.get_device_name(0)

    def bench(n: int) -> float:
        x, y = torch.randn(n, device="cuda"), torch.randn(n, device="cuda")
        out = torch.empty_like(x)
        return triton.testing.do_bench(lambda: module.vector_add(x, y, out), return_mode="median")

    db_ms = bench(16777216)
    add_ms = bench(ADD_N)
    peak = devices.lookup(name)
    gbps = 3 * ADD_N * 4 / (add_ms / 1e3) / 1e9
    add = {
        "n": ADD_N,
        "median_ms": add_ms,
        "gbps": gbps,
        "peak_gbps": peak.gbps if peak else None,
        "share_of_peak": gbps / peak.gbps if peak else None,
    }
    return {"do_bench_median_ms": db_ms}, add, name


def standin_grade(job: Job) -> dict[str, Any]:
    """Dry run: the expected status and made-up figures; proves nothing about a GPU."""
    status = job.want or "wrong_answer"
    timing = {"median_ms": 0.1, "cv": 0.01, "gbps": None, "roofline_fraction": None}
    return {"status": status, "timing": timing if status == "accepted" else None, "flags": []}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--out", default=os.environ.get("OUT") or "var/gpu_check")
    parser.add_argument("--timed-first", action="store_true", help="timed jobs before the rest")
    parser.add_argument("--repeats", type=int, default=REPEATS, help="extra grades of one job")
    parser.add_argument(
        "--total-budget-s", type=float, default=TOTAL_BUDGET_S,
        help="seconds the whole check should take (sets the timed loop per benchmark)",
    )  # fmt: skip
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    global STREAM
    STREAM = out / "gpu_check_rows.jsonl"
    STREAM.write_text("")
    started = time.monotonic()
    jobs = plan()
    budget, estimate = timing_budget(jobs, args.total_budget_s)
    os.environ["PDC_RUNNER_TIMING_BUDGET_S"] = f"{budget:.3f}"
    if args.dry_run:
        grade_fn: GradeFn = standin_grade
        device = "dry run"
    else:
        import torch

        if not torch.cuda.is_available():
            print("gpu_check needs a CUDA GPU (use --dry-run to check the script itself)")
            return 2
        grade_fn, device = gpu_grade, torch.cuda.get_device_name(0)
    print(f"{len(jobs)} jobs; timing budget {budget:.2f} s per benchmark; ~{estimate:.0f} s")
    rows = run_jobs(jobs, grade_fn, timed_first=args.timed_first)
    repeat_job = next(j for j in jobs if _is_repeat(j))
    medians = [
        (grade_fn(repeat_job).get("timing") or {}).get("median_ms") for _ in range(args.repeats)
    ]
    runner_ms = next((r.median_ms for r in rows if _is_repeat(r.job)), None)
    if args.dry_run:
        cmp, add = (
            {"do_bench_median_ms": 0.1},
            {"gbps": None, "peak_gbps": None, "share_of_peak": None},
        )
    else:
        cmp, add, device = gpu_do_bench_and_add()
    cmp["runner_median_ms"] = runner_ms
    cmp["ratio"] = runner_ms / cmp["do_bench_median_ms"] if runner_ms else None
    report = {
        "device": device,
        "dry_run": args.dry_run,
        "budget_s": budget,
        "estimate_s": estimate,
        "rows": [asdict(r) for r in rows],
        "mismatches": sum(r.outcome == "mismatch" for r in rows),
        "not_defended": sum(r.outcome == "not_defended" for r in rows),
        "repeat": repeat_spread(medians),
        "do_bench": cmp,
        "add_kernel": add,
        "wall_s": time.monotonic() - started,
    }
    (out / "gpu_check.json").write_text(json.dumps(report, indent=1, ensure_ascii=False))
    (out / "gpu_check.md").write_text(markdown(report), encoding="utf-8")
    print(
        f"wrote {out / 'gpu_check.json'} and {out / 'gpu_check.md'}; mismatches: {report['mismatches']}"
    )
    return 1 if report["mismatches"] else 0


if __name__ == "__main__":
    sys.exit(main())
