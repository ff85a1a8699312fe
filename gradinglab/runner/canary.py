"""The canary a GPU worker runs before its first job: a known-good CUDA kernel, compiled by the
host's nvcc and graded through the real sandbox on the worker's GPU.

Why: a student library built by nvcc 13 links CUDA runtime 13, which cannot launch on a driver
of an older major version; the launch fails without a message and every correct submission
would come back `wrong_answer`. A worker whose canary is not accepted refuses jobs and says why
(the job gets `infrastructure_error`, which costs the student nothing, and is retried).
"""

from __future__ import annotations

import ctypes
import re
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from . import cuda_build
from .sandbox import libcuda_dir

CANARY_SLUG = "vector-add"
CANARY_SOURCE = r"""
__global__ void canary_add(const float* x, const float* y, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = x[i] + y[i];
}

extern "C" void vector_add(const float* x, const float* y, float* out, int n) {
    canary_add<<<(n + 255) / 256, 256>>>(x, y, out, n);
}
"""


@dataclass(frozen=True)
class Readiness:
    ok: bool
    reason: str  # shown to staff (worker log, heartbeat) and in refused jobs' messages


def _version_text(version: int) -> str:
    """CUDA's encoded version (major * 1000 + minor * 10) as "13.0"."""
    return f"{version // 1000}.{version % 1000 // 10}"


def decide(
    *,
    driver: int | None,
    nvcc: tuple[int, int] | None,
    canary_status: str | None,
    canary_message: str = "",
) -> Readiness:
    """Whether a GPU worker may take jobs, from what the pool found when it started."""
    if driver is None or driver <= 0:
        return Readiness(False, "no CUDA driver answered on this host")
    if nvcc is None:
        return Readiness(False, f"nvcc not found at {cuda_build.NVCC}: CUDA jobs cannot compile")
    if driver // 1000 < nvcc[0]:
        return Readiness(
            False,
            f"the driver supports CUDA {_version_text(driver)} but nvcc builds for CUDA "
            f"{nvcc[0]}.{nvcc[1]}: student libraries would fail to launch (update the driver "
            "or install an nvcc of the driver's major version)",
        )
    if canary_status != "accepted":
        return Readiness(
            False, f"the canary kernel was not accepted ({canary_status}): {canary_message[:500]}"
        )
    return Readiness(
        True, f"driver CUDA {_version_text(driver)}, nvcc {nvcc[0]}.{nvcc[1]}, canary accepted"
    )


def driver_version(library: str | None = None) -> int | None:
    """The driver's CUDA version, encoded, from the driver library (cuDriverGetVersion).

    torch has no public call for it; the private `torch._C._cuda_getDriverVersion` this used
    before does not exist (torch 2.11 on an H200 host), so every GPU worker refused every job.
    The driver API answers without creating a context."""
    names = [library] if library else ["libcuda.so.1"]
    if not library and (found := libcuda_dir()):
        names.append(f"{found}/libcuda.so.1")
    for name in names:
        try:
            lib = ctypes.CDLL(name)
        except OSError:
            continue
        version = ctypes.c_int(0)
        if lib.cuDriverGetVersion(ctypes.byref(version)) == 0 and version.value > 0:
            return version.value
    return None


def nvcc_version() -> tuple[int, int] | None:
    try:
        out = subprocess.run(
            [cuda_build.NVCC, "--version"], capture_output=True, text=True, timeout=30
        ).stdout
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"release (\d+)\.(\d+)", out)
    return (int(match.group(1)), int(match.group(2))) if match else None


def run(gpu_index: int, grade: Callable[..., dict[str, Any]]) -> Readiness:
    """Check versions, then grade the canary on cuda:<gpu_index> (correctness only, no timing).

    `grade` is the grader's entry point, passed in: the grader uses the pool that runs this check,
    so importing it here would close a cycle."""
    driver, nvcc = driver_version(), nvcc_version()
    if driver is None or nvcc is None or driver // 1000 < nvcc[0]:
        return decide(driver=driver, nvcc=nvcc, canary_status=None)
    doc = grade(
        slug=CANARY_SLUG,
        source=CANARY_SOURCE,
        backend="cuda",
        device=f"cuda:{gpu_index}",
        public_only=True,
    )
    return decide(
        driver=driver, nvcc=nvcc, canary_status=doc["status"], canary_message=doc["message"]
    )
