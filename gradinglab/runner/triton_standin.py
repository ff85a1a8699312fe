"""A stand-in Triton driver for the interpreter (CPU path; runs inside the sandbox).

Published Triton code (the official tutorials first) asks the driver about the device before it
launches anything: `DEVICE = triton.runtime.driver.active.get_active_torch_device()` at module
level, `driver.active.utils.get_device_properties(...)` to size a persistent grid, `.warmup()` to
read a compiled kernel's registers and shared memory, and `@triton.autotune` with several configs
asks the driver for a benchmarker. Under TRITON_INTERPRET=1 no driver is active, so all of these
fail before the kernel runs, and none of it is the student's mistake.

The stand-in answers them the way an H100/H200-class GPU would (132 SMs, 64 Ki registers, 227 KiB
of shared memory, warp 32, compute capability 9.0; the lab's GPU hosts are of that class) and
hands out CPU tensors. Autotune runs exactly one config: the benchmarker returns equal times
without calling the kernel, so the autotuner keeps the first config that survived pruning. None
of these figures grade anything: CPU-path results are correctness only.

Pinned to triton 3.7.1 (`triton_guard.SUPPORTED_TRITON`): `driver.set_active`, `DriverBase`,
`GPUTarget`, `InterpretedFunction.run(..., warmup=...)`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import SimpleNamespace
from typing import Any

CAPABILITY = (9, 0)
WARP_SIZE = 32
# The keys and units of triton's nvidia driver.c getDeviceProperties (bytes, registers, kHz, bits).
PROPERTIES = {
    "max_shared_mem": 232448,
    "max_num_regs": 65536,
    "multiprocessor_count": 132,
    "warpSize": WARP_SIZE,
    "sm_clock_rate": 1980000,
    "mem_clock_rate": 3201000,
    "mem_bus_width": 6144,
}
DEVICE_NAME = "Triton interpreter (CPU stand-in for an H100-class GPU)"
REGS_PER_THREAD = 32  # what .warmup() reports: a small kernel's register count
SMEM_PER_THREAD = 4  # bytes per thread reported as the kernel's shared memory (one word)

# Text of the errors torch and triton raise when code really needs a CUDA device.
_NEEDS_GPU_MARKERS = (
    "Torch not compiled with CUDA enabled",
    "Found no NVIDIA driver",
    "No CUDA GPUs are available",
    "CUDA driver initialization failed",
    "active drivers",
    "cudaGetDeviceCount",
    "NVIDIA driver on your system is too old",
)


def needs_gpu_reason(exc: BaseException) -> str | None:
    """A one-line reason when `exc` (or what caused it) says the code needs a real GPU."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        text = f"{type(current).__name__}: {current}"
        for marker in _NEEDS_GPU_MARKERS:
            if marker in text:
                return text.splitlines()[0][:300]
        current = current.__cause__ or current.__context__
    return None


class _Utils:
    @staticmethod
    def get_device_properties(device: Any = None) -> dict[str, int]:
        return dict(PROPERTIES)


def _benchmark_nothing(kernel_call: Callable[[], Any], *, quantiles: Sequence[float] = (), **_):
    """Equal times for every config, kernel not run: the autotuner keeps its first config."""
    return [0.0] * len(quantiles) if quantiles else 0.0


def _make_driver() -> Any:
    import torch
    from triton.backends.compiler import GPUTarget
    from triton.backends.driver import DriverBase

    class StandInDriver(DriverBase):
        utils = _Utils()

        @classmethod
        def is_active(cls) -> bool:
            return True

        def map_python_to_cpp_type(self, ty: str) -> str:
            raise NotImplementedError("the Triton interpreter builds no C launcher")

        def get_current_target(self) -> Any:
            return GPUTarget("cuda", CAPABILITY[0] * 10 + CAPABILITY[1], WARP_SIZE)

        def get_active_torch_device(self) -> Any:
            return torch.device("cpu")

        def get_benchmarker(self) -> Any:
            return _benchmark_nothing

        def get_device_interface(self) -> Any:
            return torch.cpu

        def get_current_device(self) -> int:
            return 0

        def set_current_device(self, device: int) -> None:
            pass

        def get_current_stream(self, device: int | None = None) -> int:
            return 0

    return StandInDriver()


class StandInKernel:
    """What `.warmup(...)` returns under the interpreter: a compiled kernel's read-outs, and a
    launcher that runs the interpreted kernel with the meta-parameters given to warmup."""

    def __init__(self, fn: Any, kwargs: dict[str, Any]):
        self._fn = fn
        self._kwargs = kwargs
        warps = int(kwargs.get("num_warps", 4))
        self.n_regs = REGS_PER_THREAD
        self.n_spills = 0
        self.n_max_threads = warps * WARP_SIZE
        self.metadata = SimpleNamespace(
            shared=warps * WARP_SIZE * SMEM_PER_THREAD,
            num_warps=warps,
            num_stages=int(kwargs.get("num_stages", 3)),
            num_ctas=1,
        )

    def _init_handles(self) -> None:
        pass

    def __getitem__(self, grid: Any) -> Callable[..., Any]:
        def launch(*args: Any, **kwargs: Any) -> Any:
            # Compiled kernels take every argument positionally, constexprs included (or only
            # the runtime ones); fill the rest from what warmup was given.
            given = set(self._fn.arg_names[: len(args)]) | set(kwargs)
            rest = {k: v for k, v in self._kwargs.items() if k not in given}
            return self._fn.run(*args, grid=grid, warmup=False, **rest, **kwargs)

        return launch


def _device_properties(device: Any = None) -> Any:
    total = 141 * 1024**3  # bytes (an H200's HBM)
    return SimpleNamespace(
        name=DEVICE_NAME,
        major=CAPABILITY[0],
        minor=CAPABILITY[1],
        multi_processor_count=PROPERTIES["multiprocessor_count"],
        total_memory=total,
        warp_size=WARP_SIZE,
        regs_per_multiprocessor=PROPERTIES["max_num_regs"],
        max_threads_per_multi_processor=2048,
        shared_memory_per_block_optin=PROPERTIES["max_shared_mem"],
        shared_memory_per_multiprocessor=233472,
        L2_cache_size=50 * 1024**2,
    )


def install() -> None:
    """Make the stand-in the active driver and answer torch.cuda's device queries (read-only
    queries only: allocating on "cuda" still fails, and is reported as needs_gpu)."""
    import torch
    from triton.runtime import interpreter as interp
    from triton.runtime.driver import driver

    standin = _make_driver()
    driver._default = standin  # `driver.default` would raise "0 active drivers"
    driver.set_active(standin)

    fn_cls = interp.InterpretedFunction
    if not getattr(fn_cls, "_pdc_standin", False):
        orig_run = fn_cls.run

        def run(self: Any, *args: Any, grid: Any, warmup: bool, **kwargs: Any) -> Any:
            if warmup:
                return StandInKernel(self, kwargs)
            return orig_run(self, *args, grid=grid, warmup=False, **kwargs)

        fn_cls.run = run
        fn_cls._pdc_standin = True

    torch.cuda.get_device_properties = _device_properties
    torch.cuda.get_device_capability = lambda device=None: CAPABILITY
    torch.cuda.get_device_name = lambda device=None: DEVICE_NAME
