"""The physical floor of a benchmark: the least time any kernel could take on a device.

Pure Python (no torch): the web side re-checks posted documents with the same figures as the
worker, without importing torch. A median below the floor is impossible for honest work, so the
floor must never be above what a legitimate kernel reaches:

- memory: the bytes the problem's `cost` says must move, over the device's peak bandwidth;
- compute: the flops over the fastest tensor-core rate whose rounding the problem's tolerance
  admits (issue 12). A float32 matmul with rtol 1e-2 may legitimately run its products in bf16
  (a unit roundoff of 2^-8 is within 1e-2), so its floor uses the bf16 rate, not the fp32 one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from . import devices
from .problems import Problem, problem_cost

ELEMENT_BYTES = {
    "float64": 8,
    "float32": 4,
    "float16": 2,
    "bfloat16": 2,
    "int64": 8,
    "int32": 4,
    "uint8": 1,
}
# Unit roundoff of each precision a kernel may compute in (2^-(mantissa bits + 1)).
UNIT_ROUNDOFF = {
    "float64": 2.0**-53,
    "float32": 2.0**-24,
    "tf32": 2.0**-11,
    "float16": 2.0**-11,
    "bfloat16": 2.0**-8,
}
# A product of two rounded inputs carries about 2u of relative error; the tolerance must cover it.
ROUNDOFF_FACTOR = 2.0


@dataclass(frozen=True)
class Floor:
    floor_ms: float | None
    precision: str | None  # the compute precision whose rate set the compute floor
    bytes: float
    flops: float


def admitted_precisions(dtype: str, rtol: float) -> list[str]:
    """The precisions a legitimate kernel may compute a `dtype` problem in under `rtol`.

    The problem's own dtype is always admitted; integer problems compute in their own type."""
    if dtype not in UNIT_ROUNDOFF:
        return [dtype]
    own = UNIT_ROUNDOFF[dtype]
    return [
        p
        for p, u in UNIT_ROUNDOFF.items()
        if p == dtype or (u > own and ROUNDOFF_FACTOR * u <= rtol)
    ]


def _rate_tflops(peak: devices.Peak, precision: str) -> float:
    if precision in ("float16", "bfloat16"):
        return peak.bf16
    if precision == "tf32":
        return max(peak.tf32, peak.fp32)
    return peak.fp32


def fastest_precision(peak: devices.Peak, dtype: str, rtol: float) -> tuple[str, float]:
    """(precision, TFLOP/s): the highest compute rate the tolerance admits for this dtype."""
    options = [(p, _rate_tflops(peak, p)) for p in admitted_precisions(dtype, rtol)]
    return max(options, key=lambda item: item[1])


def physical_floor(
    problem: Problem, shape: dict[str, int], dtype: str, peak: devices.Peak | None
) -> Floor:
    """max(bytes / peak bandwidth, flops / fastest admitted compute rate), in milliseconds."""
    cost = problem_cost(problem, shape, ELEMENT_BYTES.get(dtype, 4))
    nbytes, flops = float(cost.get("bytes", 0)), float(cost.get("flops", 0))
    if peak is None:
        return Floor(None, None, nbytes, flops)
    floors = []
    precision = None
    if nbytes and peak.gbps:
        floors.append(nbytes / (peak.gbps * 1e9) * 1e3)
    if flops:
        precision, tflops = fastest_precision(peak, dtype, problem.tolerance(dtype)[1])
        if tflops:
            floors.append(flops / (tflops * 1e12) * 1e3)
    return Floor(max(floors) if floors else None, precision, nbytes, flops)


def loosest_floor(problem: Problem, shape: dict[str, int], peak: devices.Peak | None) -> Floor:
    """The lowest floor over the problem's dtypes: for a document that does not name its dtype."""
    floors = [physical_floor(problem, shape, d, peak) for d in problem.dtypes]
    known = [f for f in floors if f.floor_ms is not None]
    return min(known, key=lambda f: f.floor_ms or 0.0) if known else floors[0]


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def peak_for_worker(kind: str, device: str = "") -> devices.Peak | None:
    """The peaks of the device recorded on a worker credential (never the name a document claims).

    With an exact device name, its row; with only a kind ("h100"), the fastest of the rows the
    kind matches, field by field, so that no legitimate kernel on any variant is refused."""
    if device:
        return devices.lookup(device)
    rows = [peak for key, peak in devices.PEAKS if _norm(kind) and _norm(kind) in _norm(key)]
    if not rows:
        return None
    return devices.Peak(
        gbps=max(p.gbps for p in rows),
        fp32=max(p.fp32 for p in rows),
        tf32=max(p.tf32 for p in rows),
        bf16=max(p.bf16 for p in rows),
    )


def rates(cost_bytes: float, flops: float, median_ms: float) -> dict[str, Any]:
    """Achieved GB/s and TFLOP/s of a median time (None when the cost has no such term)."""
    seconds = median_ms / 1e3
    if seconds <= 0:
        return {"gbps": None, "tflops": None}
    return {
        "gbps": cost_bytes / seconds / 1e9 if cost_bytes else None,
        "tflops": flops / seconds / 1e12 if flops else None,
    }
