"""GPU timing with CUDA events (inside the sandbox for submissions, trusted side for references).

Method (see docs/result-schema.md, "Timing"): warm-up calls, then per timed call: copy a fresh
trusted input set into the argument buffers and reset outputs to their sentinel (not timed), zero a
flush buffer of >= 2x L2, synchronize, record start, call, record end, synchronize. Repeat until the
standard error of the mean is below `target_sem` of the mean, or the time budget or run cap is hit.

Limits of the defence (documented honestly): the submission runs in this process, so it could in
principle reach the timer. We take references to Event/elapsed_time/synchronize before the
submission is imported and call those, and the trusted side rejects times below the physical floor
and flags results whose outputs changed between calls on the same input.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import torch

# Captured at import, i.e. before any submission module exists in this process.
_Event = torch.cuda.Event
_elapsed = torch.cuda.Event.elapsed_time
_record = torch.cuda.Event.record
_sync = torch.cuda.synchronize
_perf = time.perf_counter


def flush_buffer(device: torch.device, min_bytes: int) -> torch.Tensor:
    l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or 0
    nbytes = max(min_bytes, 2 * int(l2))  # >= 2x L2 so nothing from the last call stays cached
    return torch.empty(nbytes // 4, dtype=torch.int32, device=device)


def event_overhead_ms(n: int = 20) -> float:
    times = []
    for _ in range(n):
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)
        _record(start)
        _record(end)
        _sync()
        times.append(_elapsed(start, end))
    return statistics.median(times)


def timed_runs(
    call: Callable[[], Any],
    prepare: Callable[[int], None],
    cfg: dict[str, Any],
    device: torch.device,
    after: Callable[[int], None] | None = None,
    n_sets: int = 1,
) -> dict[str, Any]:
    flush = flush_buffer(device, int(cfg.get("flush_bytes", 256 * 1024 * 1024)))
    for i in range(int(cfg.get("warmup_calls", 3))):
        prepare(i % n_sets)
        call()
    _sync()
    overhead = event_overhead_ms()
    times: list[float] = []
    budget = float(cfg.get("budget_s", 10.0))  # s of wall clock for the whole timing loop
    min_runs, max_runs = int(cfg.get("min_runs", 10)), int(cfg.get("max_runs", 1000))
    target = float(cfg.get("target_sem", 0.005))  # SEM / mean
    started = _perf()
    while len(times) < max_runs:
        k = len(times) % n_sets
        prepare(k)
        flush.zero_()
        _sync()
        start, end = _Event(enable_timing=True), _Event(enable_timing=True)
        _record(start)
        call()
        _record(end)
        _sync()  # device-wide: work hidden on side streams is waited for too
        times.append(float(_elapsed(start, end)))
        if after:
            after(k)
        if len(times) >= min_runs and (_sem_ok(times, target) or _perf() - started > budget):
            break
    return {"times_ms": times, "event_overhead_ms": overhead, "wall_s": _perf() - started}


def _sem_ok(times: list[float], target: float) -> bool:
    mean = statistics.fmean(times)
    if mean <= 0:
        return True
    sem = statistics.stdev(times) / math.sqrt(len(times))
    return sem / mean < target


def time_submission(
    entry: Callable[..., Any], cfg: dict[str, Any], device: torch.device
) -> dict[str, Any]:
    """Time the submission on the trusted benchmark sets in /job/bench.pt; snapshot outputs."""
    from .harness import JOB, build_args

    sets = torch.load(f"{JOB}/bench.pt", weights_only=True)["sets"]
    src = [build_args(s, device) for s in sets]  # sources stay untouched
    args, buf_in, buf_out = build_args(sets[0], device)  # the buffers the submission sees
    snapshots: list[dict[str, Any] | None] = [None] * len(sets)
    changed = []

    def prepare(k: int) -> None:
        for key, t in buf_in.items():
            t.copy_(src[k][1][key])
        for key, t in buf_out.items():
            t.copy_(src[k][2][key])

    def after(k: int) -> None:
        snap = {
            "outputs": {key: t.clone() for key, t in buf_out.items()},
            "inputs": {key: t.clone() for key, t in buf_in.items()},
        }
        prev = snapshots[k]
        if prev is not None and not all(
            _same(prev["outputs"][key], snap["outputs"][key]) for key in buf_out
        ):
            changed.append(k)
        snapshots[k] = snap

    out = timed_runs(lambda: entry(*args), prepare, cfg, device, after, n_sets=len(sets))
    torch.save({"sets": snapshots}, f"{JOB}/bench_result.pt")
    out["changed_sets"] = sorted(set(changed))
    return out


def _same(a: torch.Tensor, b: torch.Tensor) -> bool:
    if a.is_floating_point():
        return bool(((a == b) | (a.isnan() & b.isnan())).all())
    return torch.equal(a, b)


def summarize(times_ms: list[float]) -> dict[str, float]:
    mean = statistics.fmean(times_ms)
    std = statistics.stdev(times_ms) if len(times_ms) > 1 else 0.0
    return {
        "median_ms": statistics.median(times_ms),
        "mean_ms": mean,
        "std_ms": std,
        "runs": len(times_ms),
        "cv": std / mean if mean > 0 else 0.0,
    }
