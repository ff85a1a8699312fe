"""The timing loop's two halves and the statistics both sides share.

Inside the sandbox (`ArgBuffers`, `BenchBuffers`): the buffers the harness allocates before the
seal and the round loop the trusted parent drives. None of it decides a time: the parent's clock
does (measure.py); the device events recorded here are a hint, reported and compared, never graded.

Trusted side (`timed_runs` for the PyTorch baseline, `median_ci95`, `summarize`): plain functions.
Both sides: the keystream that masks the timed sets (`masked`) and the sign-weighted block sums
of outputs (`weighted_sums`), which must come out the same in the parent and in the sandbox.

Round method (see docs/result-schema.md, "Timing"): per call, unmask a benchmark set into the
argument buffers (the key came with the round's `go`) and copy the sentinel into the outputs, zero
a flush buffer (>= 2x L2), call, then a device-wide synchronize (work on any stream is finished
before the snapshot), and copy inputs and outputs into that call's snapshot slot. No synchronize
between the flush and the call: the student's launch overhead overlaps the flush on the device
(triton.testing.do_bench's way).
"""

from __future__ import annotations

import hashlib
import math
import statistics
import time
from collections.abc import Callable
from typing import Any

import torch

from . import slots
from .failures import classify_exception
from .messages import Msg

# Trusted side only (the PyTorch baseline runs in the grader process, never in the sandbox).
_perf = time.perf_counter


def _view(t: torch.Tensor) -> torch.Tensor:
    """A new tensor object over the same memory: re-pointing it (set_) leaves `t` alone."""
    return t.as_strided(t.size(), t.stride(), t.storage_offset())


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize()  # device-wide: every stream of this process


class ArgBuffers:
    """The argument tensors the harness allocated for one call layout; kept private.

    The submission gets fresh views each call, so `out.set_(other)`, `resize_` or re-pointing an
    output at an input never moves what the harness reads back.
    """

    def __init__(self, case: dict[str, Any], device: torch.device):
        self.device = device
        self.inputs = {k: v.to(device).clone() for k, v in case["inputs"].items()}
        self.outputs = {k: v.to(device).clone() for k, v in case["outputs"].items()}
        self.layout = case["args"]
        self._handed: dict[str, torch.Tensor] = {}

    def fresh_args(self) -> list[Any]:
        args: list[Any] = []
        self._handed = {}
        for kind, value in self.layout:
            if kind in ("in", "out"):
                src = self.inputs[value] if kind == "in" else self.outputs[value]
                view = _view(src)
                self._handed[f"{kind}:{value}"] = view
                args.append(view)
            elif kind == "int":
                args.append(int(value))
            else:
                args.append(float(value))
        return args

    def repointed(self) -> list[str]:
        """Arguments the submission re-pointed at other memory (a hint for the message)."""
        moved = []
        for name, view in self._handed.items():
            kind, key = name.split(":", 1)
            own = self.inputs[key] if kind == "in" else self.outputs[key]
            if view.data_ptr() != own.data_ptr() or view.shape != own.shape:
                moved.append(key)
        return moved

    def snapshot(self) -> dict[str, Any]:
        return {
            "inputs": {k: v.detach().cpu().clone() for k, v in self.inputs.items()},
            "outputs": {k: v.detach().cpu().clone() for k, v in self.outputs.items()},
            "repointed": self.repointed(),
        }


class BenchBuffers:
    """One benchmark (shape x dtype): K timed sets + 1 warm-up set, buffers, snapshot slots."""

    def __init__(
        self,
        sets: list[dict[str, Any]],
        device: torch.device,
        flush_bytes: int,
        slot_file: str | None = None,
    ):
        self.device = device
        self.sets = sets[:-1]  # the last set is for warm-up only: never timed, never checked
        self.warm_set = sets[-1]
        self.src = [
            (
                {k: v.to(device) for k, v in s["inputs"].items()},
                {k: v.to(device) for k, v in s["outputs"].items()},
            )
            for s in sets
        ]
        self.buffers = ArgBuffers(sets[0], device)
        if slot_file:  # the parent reads the slots itself (slots.py): the CPU path
            self.slots = slots.map_file(slot_file, slots.layout_of(sets[0], len(self.sets)))
        else:
            self.slots = [
                {
                    "inputs": {k: torch.empty_like(v) for k, v in self.buffers.inputs.items()},
                    "outputs": {k: torch.empty_like(v) for k, v in self.buffers.outputs.items()},
                }
                for _ in self.sets
            ]
        self.flush = torch.empty(flush_words(device, flush_bytes), dtype=torch.int32, device=device)
        self.calls = 0  # calls in the last round

    def _load(self, k: int, mask_key: int) -> None:
        """Set k into the argument buffers: its inputs unmasked with `mask_key` (a wrong key, as
        the no-op rounds use, costs the same and loads noise), the sentinel into the outputs."""
        inputs, outputs = self.src[k]
        for name, t in self.buffers.inputs.items():
            unmask_into(t, inputs[name], mask_seed(mask_key, k, name))
        for name, t in self.buffers.outputs.items():
            t.copy_(outputs[name])

    def run_round(
        self, order: list[int], entry: Callable[..., Any] | None, mask_key: int
    ) -> dict[str, Any]:
        """One sealed round: each set of `order` once. entry None: the calibration no-op."""
        cuda = self.device.type == "cuda"
        marks: list[Any] = []
        for i, k in enumerate(order):
            self._load(int(k), mask_key)
            self.flush.zero_()
            args = self.buffers.fresh_args()
            start = torch.cuda.Event(enable_timing=True) if cuda else None
            end = torch.cuda.Event(enable_timing=True) if cuda else None
            if start is not None:
                start.record()
            t0 = time.perf_counter()
            try:
                if entry is not None:
                    entry(*args)
            except BaseException as exc:
                failure = classify_exception(exc)
                failure["message"] = Msg("during_timed_call", i=i) + failure["message"]
                return {"failure": failure}
            if end is not None:
                end.record()
            _sync(self.device)
            marks.append((start, end) if cuda else (time.perf_counter() - t0) * 1e3)
            slot = self.slots[i]
            for key, t in self.buffers.outputs.items():
                slot["outputs"][key].copy_(t)
            for key, t in self.buffers.inputs.items():
                slot["inputs"][key].copy_(t)
        _sync(self.device)
        self.calls = len(order)
        device_ms = [float(s.elapsed_time(e)) for s, e in marks] if cuda else marks
        return {"device_ms": device_ms}

    def warm_up(self, entry: Callable[..., Any], calls: int) -> dict[str, Any] | None:
        """JIT compile and autotune happen here, on a set that is never timed or checked."""
        inputs, outputs = self.src[-1]
        for _ in range(calls):
            for key, t in self.buffers.inputs.items():
                t.copy_(inputs[key])
            for key, t in self.buffers.outputs.items():
                t.copy_(outputs[key])
            try:
                entry(*self.buffers.fresh_args())
                _sync(self.device)
            except BaseException as exc:
                failure = classify_exception(exc)
                failure["message"] = Msg("during_warm_up") + failure["message"]
                return failure
        if self.device.type == "cuda":
            pin_autotuners()
        return None

    def save_sample(self, seed: int, count: int, path: str) -> None:
        torch.save(sample_of(self.slots, self.calls, seed, count), path)

    def save_full(self, path: str) -> None:
        torch.save(full_of(self.slots[0]), path)


def sample_of(
    snaps: list[dict[str, dict[str, torch.Tensor]]], calls: int, seed: int, count: int
) -> dict[str, dict[str, torch.Tensor]]:
    """The first `calls` snapshot slots' sampled elements, one [calls, count] tensor per argument: a
    handful of tensors to copy off the device, save and read back, not one per call and argument
    (the round's fixed cost, and with it the noise the grade counts: docs/benchmarks.md). Drawn
    by the sandbox on the GPU path, by the parent from its own read on the CPU path (slots.py)."""
    sample: dict[str, dict[str, torch.Tensor]] = {}
    for part in ("inputs", "outputs"):
        sample[part] = {}
        for key in snaps[0][part]:
            rows = []
            for i in range(calls):
                flat = snaps[i][part][key].reshape(-1)
                idx = sample_indices(flat.numel(), sub_seed(seed, i, part, key), count)
                rows.append(flat[idx.to(flat.device)])
            sample[part][key] = torch.stack(rows).cpu()
    # Each call's every output element, weighted by signs the seed picks, summed per block:
    # sums only the whole output gives, so sampling alone cannot answer them
    # (measure._check_sums).
    sample["sums"] = {
        key: weighted_sums([snaps[i]["outputs"][key] for i in range(calls)], sum_seed(seed, key))
        for key in snaps[0]["outputs"]
    }
    return sample


def full_of(slot: dict[str, dict[str, torch.Tensor]]) -> dict[str, dict[str, torch.Tensor]]:
    """One call's slot whole, on the CPU: the one call checked in full (measure._full_check)."""
    return {part: {k: v.cpu() for k, v in slot[part].items()} for part in ("inputs", "outputs")}


# --- the timed sets travel masked ----------------------------------------------------------------
# Before its first timed round a benchmark's sets sit in the sandbox (files, buffers) where the
# submission can read them at import and compute every answer untimed: round 1 would not be a
# first use (measure._judge). So the parent ships each timed set's inputs XOR a keystream and
# sends the key with `go` of the timed rounds only; every call unmasks its set into the argument
# buffers, inside the clock, in no-op rounds too (with a key of no use), so the cost is calibrated.
_INT_OF_WIDTH = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}


def mask_seed(key: int, k: int, name: str) -> int:
    return sub_seed(key, k, "mask", name)


def keystream(
    numel: int, seed: int, dtype: torch.dtype, device: torch.device | str
) -> torch.Tensor:
    """Random integers of `dtype` (one per element) from the device's generator (Philox on CUDA).
    The parent masks with the sandbox's device, so both draw the same stream."""
    gen = torch.Generator(device=device).manual_seed(seed)
    # every bit of the width (int64: 63 of them; randint takes no wider range)
    half = 2**62 if dtype == torch.int64 else 2 ** (torch.iinfo(dtype).bits - 1)
    return torch.randint(-half, half, (numel,), generator=gen, device=device, dtype=dtype)


def masked(t: torch.Tensor, seed: int) -> torch.Tensor:
    """`t`'s bits XOR the keystream of `seed`, on t's device (its own inverse). Bool tensors
    are not masked (no problem has boolean inputs: XOR would make bytes that are not bools)."""
    out = torch.empty_like(t, memory_format=torch.contiguous_format)
    unmask_into(out, t.detach(), seed)
    return out


def unmask_into(dest: torch.Tensor, src: torch.Tensor, seed: int) -> None:
    """dest = the unmasked src, XOR written straight into dest's own memory (the harness's
    buffer, contiguous: a clone): one keystream-sized temporary, not two."""
    if src.dtype == torch.bool:
        dest.copy_(src)
        return
    ints = src.contiguous().view(_INT_OF_WIDTH[src.element_size()])
    stream = keystream(ints.numel(), seed, ints.dtype, ints.device).view(ints.shape)
    torch.bitwise_xor(ints, stream, out=dest.view(ints.dtype))


def flush_words(device: torch.device, min_bytes: int) -> int:
    if device.type != "cuda":
        return max(1, min(min_bytes, 4 * 1024 * 1024) // 4)  # CPU stand-in: a small, fixed cost
    l2 = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or 0
    return max(min_bytes, 2 * int(l2)) // 4  # >= 2x L2 so nothing from the last call stays cached


def pin_autotuners() -> None:
    """Autotune off for the timed rounds: every Autotuner keeps only the configs it chose."""
    import gc

    try:
        from triton.runtime.autotuner import Autotuner
    except ImportError:
        return
    for obj in gc.get_objects():
        if isinstance(obj, Autotuner) and getattr(obj, "cache", None):
            chosen = list({id(c): c for c in obj.cache.values()}.values())
            obj.configs = chosen


# --- shared by both sides ------------------------------------------------------------------------


def sub_seed(seed: int, call: int, part: str, key: str) -> int:
    digest = hashlib.sha256(f"{seed}:{call}:{part}:{key}".encode()).digest()
    return int.from_bytes(digest[:8], "little") & ((1 << 63) - 1)


def sample_indices(numel: int, seed: int, count: int) -> torch.Tensor:
    """Flat element indices the parent checks: all when small, else `count` drawn from `seed`."""
    if numel <= count:
        return torch.arange(numel)
    gen = torch.Generator(device="cpu").manual_seed(seed)
    return torch.randint(0, numel, (count,), generator=gen)


# splitmix64's constants as signed int64: torch multiplies int64 modulo 2**64 on every device.
_GOLDEN, _MIX1, _MIX2 = (
    c - (1 << 64) for c in (0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9, 0x94D049BB133111EB)
)


def _sign_hash(numel: int, seed: int, device: torch.device | str) -> torch.Tensor:
    """splitmix64 of (seed, index) per element, int64: each of its bits a pseudo-random sign."""
    h = torch.arange(numel, dtype=torch.int64, device=device) * _GOLDEN + (seed & ((1 << 62) - 1))
    h = (h ^ (h >> 30)) * _MIX1
    h = (h ^ (h >> 27)) * _MIX2
    return h ^ (h >> 31)


# Call i of a round takes its signs from bit 40 + i of the hash, so the calls' signs are
# independent (measure._check_spread needs that) for the cost of one hash per output and round.
_FIRST_SIGN_BIT = 40
MAX_SUM_CALLS = 64 - _FIRST_SIGN_BIT  # bits 40..63; a round has at most 8 calls (grader)


_SIGN_BIT = -(1 << 63)  # a float64's sign bit, as an int64


def _signs_check(call: int) -> None:
    if not 0 <= call < MAX_SUM_CALLS:
        raise ValueError(f"call {call}: signs for at most {MAX_SUM_CALLS} calls per round")


def _signs(h: torch.Tensor, call: int) -> torch.Tensor:
    _signs_check(call)
    return 1.0 - 2.0 * ((h >> (_FIRST_SIGN_BIT + call)) & 1).to(torch.float64)


def _signed(x: torch.Tensor, h: torch.Tensor, call: int) -> torch.Tensor:
    """x in float64 times call's sign weights, as a new tensor: its sign bit flipped where the
    call's hash bit is 1, exactly, in place (a shift, an and, an xor) rather than through a
    float64 weight vector made and multiplied for every call of the round."""
    _signs_check(call)
    out = x.to(torch.float64, copy=True)
    flip = h << (63 - _FIRST_SIGN_BIT - call)
    flip &= _SIGN_BIT
    out.view(torch.int64).bitwise_xor_(flip)
    return out


def sign_weights(numel: int, seed: int, device: torch.device | str, call: int = 0) -> torch.Tensor:
    """A +1/-1 weight (float64) per element from (seed, index, call), the same on every device:
    the parent and the sandbox compute it apart, and the sandbox learns the seed after the round."""
    return _signs(_sign_hash(numel, seed, device), call)


def sum_seed(seed: int, key: str) -> int:
    """One sign hash per output and round; each call of the round its own bit of it."""
    return sub_seed(seed, 0, "sum", key)


# Each output's weighted sum is sent per block of consecutive elements: at most SUM_BLOCKS blocks
# of at least MIN_SUM_BLOCK elements. Blocks give the parent many independent deviations per call
# (measure._check_spread), and a float64 rounding bound in the block's length, not the output's:
# each block is one reduction, its partial sums then a second (measure._sum_scale).
SUM_BLOCKS = 64
MIN_SUM_BLOCK = 256  # elements


def sum_block(numel: int) -> int:
    """Elements per block of an output of `numel` elements (the last block may be shorter)."""
    return max(MIN_SUM_BLOCK, -(-numel // SUM_BLOCKS))


def block_sums(x: torch.Tensor) -> torch.Tensor:
    """Sums of `x`'s consecutive blocks of sum_block(numel) elements, in x's dtype and device."""
    n, size = x.numel(), sum_block(x.numel())
    whole = n - n % size
    parts = [x[:whole].view(-1, size).sum(dim=1)]
    if whole < n:
        parts.append(x[whole:].sum().reshape(1))
    return torch.cat(parts)


def weighted_sums(tensors: list[torch.Tensor], seed: int) -> torch.Tensor:
    """Tensor i's elements times the sign weights of call i, summed per block (block_sums) in
    float64 on the tensors' device (one shape); [len(tensors), blocks] float64 on the CPU."""
    if not tensors:
        return torch.zeros(0, 0, dtype=torch.float64)
    flat = [t.detach().reshape(-1) for t in tensors]
    h = _sign_hash(flat[0].numel(), seed, flat[0].device)
    return torch.stack([block_sums(_signed(f, h, i)) for i, f in enumerate(flat)]).cpu()


def weighted_sum(t: torch.Tensor, seed: int) -> float:
    """`t` as call 0: its blocks' weighted sums added up."""
    return float(weighted_sums([t], seed)[0].sum())


def median_ci95(samples: list[float]) -> tuple[float, float]:
    """Distribution-free 95 % interval of the median (order statistics, normal approximation)."""
    xs = sorted(samples)
    n = len(xs)
    if n < 6:
        return xs[0], xs[-1]  # too few for the approximation: the whole range
    half = 0.98 * math.sqrt(n)  # 1.96 * sqrt(n) / 2
    lo = max(0, math.floor(n / 2 - half))
    hi = min(n - 1, math.ceil(n / 2 + half))
    return xs[lo], xs[hi]


def summarize(times_ms: list[float]) -> dict[str, Any]:
    mean = statistics.fmean(times_ms)
    std = statistics.stdev(times_ms) if len(times_ms) > 1 else 0.0
    lo, hi = median_ci95(times_ms)
    return {
        "median_ms": statistics.median(times_ms),
        "ci95_ms": [lo, hi],
        "mean_ms": mean,
        "std_ms": std,
        "runs": len(times_ms),
        "cv": std / mean if mean > 0 else 0.0,
    }


# --- trusted side: the PyTorch baseline, timed in the grader process ---------------------------


def timed_runs(
    call: Callable[[], Any],
    prepare: Callable[[int], None],
    cfg: dict[str, Any],
    device: torch.device,
    after: Callable[[int], None] | None = None,
    n_sets: int = 1,
) -> dict[str, Any]:
    """Time trusted code (the baseline) with CUDA events: it cannot tamper with them."""
    words = flush_words(device, int(cfg.get("flush_bytes", 256 * 2**20)))
    flush = torch.empty(words, dtype=torch.int32, device=device)
    for i in range(int(cfg.get("warmup_calls", 3))):
        prepare(i % n_sets)
        call()
    _sync(device)
    times: list[float] = []
    budget = float(cfg.get("budget_s", 10.0))  # s of wall clock for the whole timing loop
    min_runs, max_runs = int(cfg.get("min_runs", 10)), int(cfg.get("max_runs", 1000))
    target = float(cfg.get("target_sem", 0.005))  # SEM / mean
    started = _perf()
    while len(times) < max_runs:
        k = len(times) % n_sets
        prepare(k)
        flush.zero_()
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        call()
        end.record()
        _sync(device)
        times.append(float(start.elapsed_time(end)))
        if after:
            after(k)
        if len(times) >= min_runs and (_sem_ok(times, target) or _perf() - started > budget):
            break
    return {"times_ms": times, "wall_s": _perf() - started}


def _sem_ok(times: list[float], target: float) -> bool:
    mean = statistics.fmean(times)
    if mean <= 0:
        return True
    return statistics.stdev(times) / math.sqrt(len(times)) / mean < target
