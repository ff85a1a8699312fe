"""Bounds checking and device_assert for the Triton interpreter (runs inside the sandbox).

The interpreter (TRITON_INTERPRET=1) turns every load/store into numpy reads at raw addresses:
small overruns read garbage silently, far ones segfault. Every memory access of triton 3.7.1's
interpreter goes through InterpreterBuilder.create_masked_load / create_masked_store (plain,
block-pointer and descriptor loads all end there) or the two atomics, so we check the addresses that
are actually accessed (mask applied) against the storages of the tensors passed to the kernel.
Pinned to triton 3.7.1 internals (requirements/worker.txt); `install()` fails loudly on others.
"""

from __future__ import annotations

import threading
from typing import Any

import numpy as np

from .messages import Msg

SUPPORTED_TRITON = ("3.7.",)


class OutOfBoundsAccess(RuntimeError):
    def __init__(self, kernel: str, op: str, address: int, nbytes: int, count: int):
        self.kernel, self.op, self.address, self.count = kernel, op, address, count
        # Two ids, not "element(s)": the web side has one template per id, no plural forms.
        counted = {"count": count} if count != 1 else {}
        self.said = Msg(
            "out_of_bounds" if counted else "out_of_bounds_one",
            op=op,
            kernel=kernel,
            address=f"{address:#x}",
            nbytes=nbytes,
            **counted,
        )
        super().__init__(str(self.said))


class DeviceAssertionError(RuntimeError):
    def __init__(self, kernel: str, message: str):
        self.kernel = kernel
        self.said = Msg("device_assert_failed", kernel=kernel, detail=message)
        super().__init__(str(self.said))


_state = threading.local()
last_violation: list[BaseException] = []  # survives the interpreter's exception wrapping


def _ranges() -> tuple[np.ndarray, np.ndarray, str]:
    ctx = getattr(_state, "ctx", None)
    if ctx is None:
        return np.zeros(0, np.uint64), np.zeros(0, np.uint64), "?"
    return ctx


def _check(ptrs: Any, mask: Any, op: str) -> None:
    lo, hi, kernel = _ranges()
    addrs = np.asarray(ptrs.data, dtype=np.uint64)
    if mask is not None:
        addrs = addrs[np.broadcast_to(np.asarray(mask.data, dtype=bool), addrs.shape)]
    else:
        addrs = addrs.reshape(-1)
    if addrs.size == 0:
        return
    elem = max(1, ptrs.get_element_ty().primitive_bitwidth // 8)
    # Each access [a, a+elem) must lie inside one storage [lo_i, hi_i); ranges are sorted by lo.
    idx = np.searchsorted(lo, addrs, side="right") - 1
    inside = idx >= 0
    safe_idx = np.where(inside, idx, 0)
    if lo.size:
        inside &= (addrs + np.uint64(elem)) <= hi[safe_idx]
    else:
        inside[:] = False
    if not inside.all():
        bad = addrs[~inside]
        exc = OutOfBoundsAccess(kernel, op, int(bad[0]), elem, int(bad.size))
        last_violation.append(exc)
        raise exc


def _tensor_ranges(args: list[Any], kwargs: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    spans = []
    for arg in [*args, *kwargs.values()]:
        base = getattr(arg, "base", arg)  # TensorWrapper
        if hasattr(base, "untyped_storage"):
            storage = base.untyped_storage()
            start = storage.data_ptr()
            spans.append((start, start + storage.nbytes()))
    spans.sort()
    lo = np.array([s for s, _ in spans], dtype=np.uint64)
    hi = np.array([e for _, e in spans], dtype=np.uint64)
    return lo, hi


def install() -> None:
    """Patch the interpreter once per process, before any student module is imported."""
    import triton
    from triton.runtime import interpreter as interp

    if not triton.__version__.startswith(SUPPORTED_TRITON):
        raise RuntimeError(
            f"triton_guard supports triton {SUPPORTED_TRITON}, found {triton.__version__}"
        )
    builder_cls = interp.InterpreterBuilder
    grid_cls = interp.GridExecutor
    if getattr(builder_cls, "_pdc_guarded", False):
        return
    from . import triton_standin

    triton_standin.install()  # device queries and autotune of published code, answered on CPU
    orig_load, orig_store = builder_cls.create_masked_load, builder_cls.create_masked_store
    orig_cas, orig_rmw = builder_cls.create_atomic_cas, builder_cls.create_atomic_rmw
    orig_init_args = grid_cls._init_args_hst
    orig_call = grid_cls.__call__

    def create_masked_load(self, ptrs, mask, other, *rest):
        _check(ptrs, mask, "load")
        return orig_load(self, ptrs, mask, other, *rest)

    def create_masked_store(self, ptrs, value, mask, *rest):
        _check(ptrs, mask, "store")
        return orig_store(self, ptrs, value, mask, *rest)

    def create_atomic_cas(self, ptr, cmp, val, *rest):
        _check(ptr, None, "atomic_cas")
        return orig_cas(self, ptr, cmp, val, *rest)

    def create_atomic_rmw(self, op, ptr, val, mask, *rest):
        _check(ptr, mask, "atomic")
        return orig_rmw(self, op, ptr, val, mask, *rest)

    def create_assert(self, condition, message):
        # Upstream uses a bare `assert` (gone under python -O); raise a clear error instead.
        if not bool(np.all(condition.data)):
            exc = DeviceAssertionError(_ranges()[2], str(message))
            last_violation.append(exc)
            raise exc

    def _init_args_hst(self, args_dev, kwargs):
        args_hst, kwargs_hst = orig_init_args(self, args_dev, kwargs)
        lo, hi = _tensor_ranges(list(args_hst), kwargs_hst)
        _state.ctx = (lo, hi, getattr(self.fn, "__name__", "?"))
        return args_hst, kwargs_hst

    def call(self, *args, **kwargs):
        try:
            return orig_call(self, *args, **kwargs)
        finally:
            _state.ctx = None

    builder_cls.create_masked_load = create_masked_load
    builder_cls.create_masked_store = create_masked_store
    builder_cls.create_atomic_cas = create_atomic_cas
    builder_cls.create_atomic_rmw = create_atomic_rmw
    builder_cls.create_assert = create_assert
    grid_cls._init_args_hst = _init_args_hst
    grid_cls.__call__ = call
    # tl.device_assert is a no-op unless the builder's options say debug.
    import dataclasses

    interp.interpreter_builder.options = dataclasses.replace(
        interp.interpreter_builder.options, debug=True
    )
    builder_cls._pdc_guarded = True


def pop_violation() -> BaseException | None:
    return last_violation.pop() if last_violation else None
