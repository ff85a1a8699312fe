"""The web side's re-check of a posted result document (issue 11): a worker's word is not a grade.

A worker credential can be stolen or a worker host compromised, so nothing a document claims about
speed or score is taken as it comes:

- the job must belong to the worker's queue kind (a CPU credential cannot post a GPU job's
  result, an h100 one cannot post an h200 job's);
- the document must be of the path its worker runs (CPU worker: CPU path, no timing);
- an `accepted` document must list every test of the problem, each passed, with the problem's
  shapes;
- a GPU timing must be of one of the problem's benchmarks at its declared shape, and its median
  must not be below the physical floor of the device recorded on the worker credential; the rates,
  roofline fraction and floor in the stored document are recomputed here from that device;
- review flags (the worker's and this check's) flag the submission, which hides it from the
  leaderboard until a TA looks.

The score itself is always recomputed from the tests and timing (`gradinglab.scoring`).
Pure checks: no writes here; `services.results.result_store` calls them inside its transaction.
"""

from __future__ import annotations

import copy
from typing import Any

from gradinglab.models import GradingJob, Submission, WorkerNode
from gradinglab.runner import devices, floors
from gradinglab.runner.problems import Problem as PackageProblem
from gradinglab.runner.problems import ProblemNotFound, load_problem
from gradinglab.worker import queues

CPU_KIND = queues.CPU_KIND
SPEEDUP_REVIEW = 10.0  # x faster than the worker's own PyTorch reference: flag (KernelBench)


class ResultRefused(ValueError):
    """The document contradicts what the web side knows (HTTP 400, logged, nothing stored)."""


class WrongWorker(PermissionError):
    """The credential is not of the job's queue kind (HTTP 403, logged, nothing stored)."""


def check_worker(worker: WorkerNode, job: GradingJob) -> None:
    if job.queue != queues.queue_for(worker.kind):
        raise WrongWorker(
            f"job of queue {job.queue!r} refused from worker {worker.name!r} of kind "
            f"{worker.kind!r}: only a worker of that queue's kind may report it"
        )


def _package(slug: str) -> PackageProblem:
    try:
        return load_problem(slug)
    except ProblemNotFound as exc:
        raise ResultRefused(f"problem package {slug!r} is not on this server") from exc


def _check_path(doc: dict[str, Any], worker: WorkerNode) -> None:
    gpu_worker = worker.kind != CPU_KIND
    if doc["path"] != ("gpu" if gpu_worker else "cpu"):
        raise ResultRefused(f"a {worker.kind} worker cannot report a {doc['path']}-path result")
    if not gpu_worker and doc["timing"] is not None:
        raise ResultRefused("a CPU-path result cannot carry a timing")
    if gpu_worker and doc["device"]["kind"] != "cuda":
        raise ResultRefused("a GPU-path result must name a CUDA device")


def _check_gradable(doc: dict[str, Any]) -> None:
    # Only the host's failure is free of charge: a submission cannot make its own run cost nothing.
    if doc["gradable"] != (doc["status"] != "infrastructure_error"):
        raise ResultRefused("gradable must be false exactly for infrastructure_error")


def _dtypes(problem: PackageProblem, backend: str) -> list[str]:
    """The dtypes the runner tests a backend in (the same rule as the grader's)."""
    return [problem.cuda_dtype()] if backend == "cuda" else list(problem.dtypes)


def _check_tests(doc: dict[str, Any], problem: PackageProblem) -> None:
    if doc["status"] != "accepted":
        return
    dtypes = _dtypes(problem, doc["backend"])
    expected = {
        (t.name if len(dtypes) == 1 else f"{t.name}/{d}"): (t.shape, d)
        for t in problem.tests
        for d in dtypes
    }
    got = {}
    for test in doc["tests"]:
        if not test["passed"]:
            raise ResultRefused("an accepted result cannot have a failed test")
        got[test["name"]] = (test["shape"], test["dtype"])
    if got != expected:
        wrong = sorted(set(got) ^ set(expected)) or sorted(
            k for k in expected if got.get(k) != expected[k]
        )
        raise ResultRefused(
            "an accepted result must list each of the problem's tests at its shape and dtype; "
            f"differs at: {', '.join(wrong)[:200]}"
        )


def _worker_peak(worker: WorkerNode) -> devices.Peak:
    peak = floors.peak_for_worker(worker.kind, worker.device)
    if peak is None:
        raise ResultRefused(
            f"no device peaks are known for worker {worker.name!r} ({worker.kind}); "
            "record its device on the credential before it grades timed jobs"
        )
    return peak


def _recheck_entry(
    entry: dict[str, Any],
    dtype: str,
    problem: PackageProblem,
    peak: devices.Peak,
    accepted: bool,
    who: str,
) -> float | None:
    """One timed benchmark: declared shape, median above the floor of the worker's device; its
    rates, roofline fraction and floor recomputed in place. Returns the roofline fraction."""
    declared = {b.name: b.shape for b in problem.benchmarks}
    if entry["name"] not in declared or entry["shape"] != declared[entry["name"]]:
        raise ResultRefused("timing is not of one of the problem's benchmarks at its shape")
    floor = floors.physical_floor(problem, entry["shape"], dtype, peak)
    median = float(entry["median_ms"])
    if accepted and (median <= 0 or (floor.floor_ms and median < floor.floor_ms)):
        raise ResultRefused(
            f"accepted result with median {median:.4f} ms below the physical floor "
            f"{floor.floor_ms or 0:.4f} ms of {who}"
        )
    achieved = floors.rates(floor.bytes, floor.flops, median)
    if problem.bound == "memory":
        fraction = achieved["gbps"] / peak.gbps if achieved["gbps"] and peak.gbps else None
    else:
        # The roofline (the score) uses the runner's rate for the dtype; only the floor takes the
        # fastest precision the tolerance admits.
        tflops = devices.compute_peak(peak, dtype)
        fraction = achieved["tflops"] / tflops if achieved["tflops"] and tflops else None
    entry.update(achieved, roofline_fraction=fraction, floor_ms=floor.floor_ms)
    return fraction


def _combined(timing: dict[str, Any], entries: list[dict[str, Any]], how: str) -> None:
    """The top-level (v1) fields from the re-checked entries, as the runner combines them: the
    leaderboard and the score read these, so none is taken from the worker."""
    median = sum(float(e["median_ms"]) for e in entries)
    fractions = [e["roofline_fraction"] for e in entries]
    fraction = None
    if fractions and all(f is not None for f in fractions):
        fraction = min(fractions) if how == "min" else sum(fractions) / len(fractions)

    def moved(rate: str) -> float | None:
        vals = [
            e[rate] * float(e["median_ms"]) / 1e3 if e[rate] is not None else None for e in entries
        ]
        ok = median > 0 and all(v is not None for v in vals)
        return sum(vals) / (median / 1e3) if ok else None  # type: ignore[arg-type]

    floors_ms = [e["floor_ms"] for e in entries]
    refs = [e["reference_median_ms"] for e in entries]
    ref = sum(refs) if all(r is not None for r in refs) else None
    timing.update(
        reference_median_ms=ref,
        speedup_vs_reference=ref / median if ref and median > 0 else None,
        benchmark=", ".join(e["name"] for e in entries)[:200],
        shape=dict(entries[0]["shape"]),
        median_ms=median,
        gbps=moved("gbps"),
        tflops=moved("tflops"),
        roofline_fraction=fraction,
        floor_ms=sum(floors_ms) if all(f is not None for f in floors_ms) else None,
    )


def _check_timing(
    doc: dict[str, Any], problem: PackageProblem, worker: WorkerNode, flags: list[str]
) -> None:
    timing = doc["timing"]
    accepted = doc["status"] == "accepted"
    if timing is None:
        if accepted and doc["path"] == "gpu" and problem.benchmarks:
            raise ResultRefused("an accepted GPU-path result must carry its timing")
        return
    peak, who = _worker_peak(worker), worker.device or worker.kind
    entries = timing["benchmarks"]  # schema v2: one per benchmark shape x dtype
    dtypes = _dtypes(problem, doc["backend"])
    if any(e["dtype"] not in dtypes for e in entries):
        raise ResultRefused("timing of a dtype the problem is not graded in")
    wanted = {(b.name, d) for b in problem.benchmarks for d in dtypes}
    got = [(e["name"], e["dtype"]) for e in entries]
    if accepted and (set(got) != wanted or len(got) != len(wanted)):
        raise ResultRefused("an accepted result must time every benchmark shape and dtype once")
    for entry in entries:
        _recheck_entry(entry, entry["dtype"], problem, peak, accepted, who)
    how = str(problem.scoring.get("combine", "mean"))
    _combined(timing, entries, how if how in ("mean", "min") else "mean")
    timing["combine"] = how if how in ("mean", "min") else "mean"
    speedup = timing.get("speedup_vs_reference")
    if speedup and speedup > SPEEDUP_REVIEW:
        flags.append(f"{speedup:.1f}x faster than the PyTorch reference: review")


def checked_document(
    document: dict[str, Any], submission: Submission, worker: WorkerNode
) -> dict[str, Any]:
    """The document to store: re-checked, with timing figures recomputed for the worker's device.

    Raises ResultRefused. The input (already schema-valid) is not modified."""
    doc = copy.deepcopy(document)
    if doc["problem"] != submission.assignment.problem.slug:
        raise ResultRefused("result is for another problem")
    if doc["backend"] != submission.backend:
        raise ResultRefused("result is for another backend")
    problem = _package(doc["problem"])
    _check_path(doc, worker)
    _check_gradable(doc)
    _check_tests(doc, problem)
    flags: list[str] = []
    _check_timing(doc, problem, worker, flags)
    doc["flags"] = (list(doc["flags"]) + [f for f in flags if f not in doc["flags"]])[:16]
    return doc


def review_reason(doc: dict[str, Any]) -> str:
    """The flag reason a submission gets from its document ('' when nothing needs review)."""
    return "; ".join(doc["flags"])[:300]
