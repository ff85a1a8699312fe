"""Trusted-side GPU timing checks: benchmark outputs, roofline, physical floor, speedup."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import torch

from . import devices, floors, gpu_timing
from .compare import compare, inputs_unchanged
from .messages import Msg
from .problems import Problem


def _budget_s() -> float:
    """Seconds of timed loop per benchmark after which a loop stops once it has its minimum of
    rounds: 10 s (GPU MODE's), or PDC_RUNNER_TIMING_BUDGET_S (bench/gpu_check.py lowers it so
    that grading every package fits its 8-minute target). A target, not a ceiling: graded rounds
    stop on min(8 s, this) per batch (measure.GPU_ROUNDS) but only after the batch's 10 rounds,
    and an interval that straddles a tier boundary adds up to 2 more batches; the PyTorch
    reference stops on min(3 s, this) after 10 runs (time_reference). What is bounded is the
    count: 200 graded rounds (measure.GPU_ROUNDS.max_rounds), 1000 reference runs (max_runs)."""
    raw = os.environ.get("PDC_RUNNER_TIMING_BUDGET_S", "")
    try:
        value = float(raw) if raw else 10.0
    except ValueError as exc:
        raise ValueError(f"PDC_RUNNER_TIMING_BUDGET_S must be seconds, got {raw!r}") from exc
    if not 0.1 <= value <= 60:
        raise ValueError(f"PDC_RUNNER_TIMING_BUDGET_S must be 0.1..60 s, got {value}")
    return value


TIMING_CFG: dict[str, Any] = {
    "budget_s": _budget_s(),  # s of wall clock for the timed loop
    "min_runs": 10,
    "max_runs": 1000,
    "target_sem": 0.005,  # stop once SEM < 0.5 % of the mean
    "flush_bytes": 256 * 1024 * 1024,  # at least; raised to 2x L2 on bigger caches
    "warmup_calls": 3,
}
SPEEDUP_REVIEW = 10.0  # x faster than the PyTorch reference: flag for TA review (KernelBench)
MEASURED_MARGIN = 1.25  # measured copy bandwidth is below peak; never reject a legitimate kernel


def cuda_arch(dev: torch.device) -> str | None:
    if dev.type != "cuda":
        return None
    major, minor = torch.cuda.get_device_capability(dev)
    return f"sm_{major}{minor}"


def device_info(dev: torch.device) -> dict[str, Any]:
    name = torch.cuda.get_device_name(dev)
    peak = devices.lookup(name)
    if peak:
        return {
            "kind": "cuda",
            "name": name,
            "peak_gbps": peak.gbps,
            "peak_tflops": peak.fp32,
            "peak_source": "table",
        }
    gbps = devices.measure_bandwidth_gbps(dev) * MEASURED_MARGIN
    return {
        "kind": "cuda",
        "name": name,
        "peak_gbps": round(gbps, 1),
        "peak_tflops": None,
        "peak_source": "measured",
    }


def _peak_tflops(doc: dict[str, Any], dtype: str) -> float | None:
    peak = devices.lookup(doc["device"]["name"])
    return devices.compute_peak(peak, dtype) if peak else None


def check_bench_outputs(bench: dict[str, Any], job_dir: Path) -> str | None:
    try:
        snaps = torch.load(job_dir / "bench_result.pt", weights_only=True)["sets"]
    except Exception as exc:
        return Msg("bench_unreadable", detail=str(exc)[:200])
    for k, trusted in enumerate(bench["trusted"]):
        snap = snaps[k] if k < len(snaps) else None
        if snap is None:
            continue  # fewer timed calls than sets: the set was never used
        for key, expected in trusted["expected"].items():
            got = snap["outputs"].get(key)
            if type(got) is not torch.Tensor or got.shape != expected.shape:
                return Msg("bench_output_form", output=repr(key))
            cmp = compare(key, got, expected, *trusted["tol"])
            if not cmp.passed:
                return Msg("bench_set_wrong", bench=bench["name"], k=k) + cmp.message
        if why := inputs_unchanged(trusted["inputs"], snap["inputs"]):
            return Msg("during_timed_calls") + why
    return None


def time_reference(bench: dict[str, Any], dev: torch.device) -> float | None:
    """Median time of the PyTorch baseline (CUDA events: trusted code), in the trusted process."""
    ref, sets = bench["ref"], bench["trusted"]
    bufs = {k: v.to(dev).clone() for k, v in sets[0]["inputs"].items()}
    srcs = [{k: v.to(dev) for k, v in s["inputs"].items()} for s in sets]

    def prepare(k: int) -> None:
        for key, t in bufs.items():
            t.copy_(srcs[k][key])

    # The problem's own-dtype PyTorch op when the package has one (reference() may use float64).
    baseline = getattr(ref, "baseline", ref.reference)
    out = gpu_timing.timed_runs(
        lambda: baseline(bufs, bench["shape"]),
        prepare,
        {**TIMING_CFG, "budget_s": min(3.0, TIMING_CFG["budget_s"])},
        dev,
        n_sets=len(sets),
    )
    return gpu_timing.summarize(out["times_ms"])["median_ms"]


def apply(
    doc: dict[str, Any],
    problem: Problem,
    bench: dict[str, Any],
    timing: dict[str, Any],
    job_dir: Path,
    dev: torch.device,
) -> tuple[str, str] | None:
    if why := check_bench_outputs(bench, job_dir):
        return "wrong_answer", why
    times = [float(t) for t in timing.get("times_ms") or [] if float(t) >= 0]
    if not times:
        return "infrastructure_error", Msg("no_measurements")
    ref_ms = time_reference(bench, dev)
    return judge(doc, problem, bench["name"], bench["shape"], bench["dtype"], times, timing, ref_ms)


def judge(
    doc: dict[str, Any],
    problem: Problem,
    name: str,
    shape: dict[str, int],
    dtype: str,
    times: list[float],
    timing: dict[str, Any],
    ref_ms: float | None,
) -> tuple[str, str] | None:
    """Fill doc["timing"]; reject (and flag) a median below the physical floor of the device."""
    stats = gpu_timing.summarize(times)
    peak = devices.lookup(doc["device"]["name"])
    floor = floors.physical_floor(problem, shape, dtype, peak)
    achieved = floors.rates(floor.bytes, floor.flops, stats["median_ms"])
    gbps, tflops = achieved["gbps"], achieved["tflops"]
    peak_gbps = doc["device"].get("peak_gbps")
    peak_tf = _peak_tflops(doc, dtype)
    floor_ms = floor.floor_ms
    if floor_ms is None and peak_gbps and floor.bytes:  # unknown device: measured bandwidth only
        floor_ms = floor.bytes / (peak_gbps * 1e9) * 1e3
    if problem.bound == "memory":
        fraction = gbps / peak_gbps if gbps and peak_gbps else None
    else:
        fraction = tflops / peak_tf if tflops and peak_tf else None
    speedup = ref_ms / stats["median_ms"] if ref_ms and stats["median_ms"] > 0 else None
    doc["timing"] = {
        "benchmark": name,
        "shape": dict(shape),
        **stats,
        "gbps": gbps,
        "tflops": tflops,
        "roofline_fraction": fraction,
        "floor_ms": floor_ms,
        "reference_median_ms": ref_ms,
        "speedup_vs_reference": speedup,
        "event_overhead_ms": timing.get("event_overhead_ms"),
        "wall_s": timing.get("wall_s"),
    }
    if speedup and speedup > SPEEDUP_REVIEW:
        doc["flags"].append(f"{speedup:.1f}x faster than the PyTorch reference: review")
    if floor_ms and stats["median_ms"] < floor_ms:
        doc["flags"].append(
            f"median {stats['median_ms']:.4f} ms is below the physical floor "
            f"{floor_ms:.4f} ms for {doc['device']['name']}: flagged for TA review"
        )
        said = {"median": f"{stats['median_ms']:.4f}", "floor": f"{floor_ms:.4f}"}
        return "rejected", Msg("below_floor", **said)
    return None
