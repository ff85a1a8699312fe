"""Parameterized-question generators: pure functions ``seed -> Variant``.

A question in the bank names a generator (``generator: amdahl_speedup``); the stem uses the
generator's parameter names as ``{placeholders}``. The correct answer is computed here, from the
same (already rounded) numbers the student sees, and never stored in the bank. Every generator is
deterministic in its seed, so the same student in the same attempt always sees the same numbers.

Tolerances: ``REL_1PCT`` (1 % relative) lets a student round to three significant figures;
integer answers (counts of transactions, blocks, launches) get an absolute tolerance of 0.
"""

from __future__ import annotations

import hashlib
import math
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

REL_1PCT = 0.01  # relative tolerance, fraction: 3 significant figures are enough
ABS_EXACT = 0.0  # absolute tolerance for integer-valued answers


@dataclass(frozen=True)
class Variant:
    """One drawn instance of a parameterized question."""

    params: dict[str, int | float | str]
    answer: float
    abs_tol: float = ABS_EXACT
    rel_tol: float = REL_1PCT
    unit: str = ""
    extra: dict[str, str] = field(default_factory=dict)


# English for the units generators write in Chinese (the English page shows no Chinese UI text).
UNIT_EN = {
    "线程": "threads",
    "次": "",
    "个": "",
    "路": "-way",
    "轮": "rounds",
    "次乘加/元素": "MACs/element",
}

Generator = Callable[[random.Random], Variant]
GENERATORS: dict[str, Generator] = {}


def register(func: Generator) -> Generator:
    GENERATORS[func.__name__] = func
    return func


def variant_seed(*parts: object) -> int:
    """A stable 63-bit seed from the given parts (e.g. secret, student id, attempt id, question id).

    Python's ``hash`` is salted per process, so it cannot be used for per-student stability.
    """
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def generate(name: str, seed: int) -> Variant:
    """Draw the variant of generator ``name`` for ``seed``; raises KeyError for unknown names."""
    return GENERATORS[name](random.Random(seed))


def _pick_fraction(rng: random.Random, lo: int, hi: int) -> float:
    """A fraction with two decimals drawn from [lo/100, hi/100]."""
    return rng.randint(lo, hi) / 100


# ---------------------------------------------------------------- lecture 1 (sec-1-17)
@register
def amdahl_speedup(rng: random.Random) -> Variant:
    p = _pick_fraction(rng, 50, 99)
    n = rng.choice([2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256, 512, 1024])
    return Variant(params={"p": p, "n": n}, answer=1 / ((1 - p) + p / n), unit="×")


@register
def gustafson_speedup(rng: random.Random) -> Variant:
    p = _pick_fraction(rng, 50, 99)
    n = rng.choice([4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048])
    return Variant(params={"p": p, "n": n}, answer=(1 - p) + p * n, unit="×")


@register
def amdahl_limit(rng: random.Random) -> Variant:
    p = rng.randint(800, 999) / 1000
    return Variant(params={"p": p}, answer=1 / (1 - p), unit="×")


@register
def amdahl_processors_needed(rng: random.Random) -> Variant:
    k = rng.randint(80, 99)  # p = k / 100
    bound = Fraction(100, 100 - k)  # 1 / (1 - p), never reached
    target = rng.randint(2, max(2, math.ceil(bound * Fraction(9, 10)) - 1))
    # s = 1 / ((1 - p) + p / n) >= target  <=>  n >= p / (1 / target - (1 - p)), exactly
    p = Fraction(k, 100)
    n = math.ceil(p / (Fraction(1, target) - (1 - p)))
    return Variant(params={"p": k / 100, "s": target}, answer=n, unit="个", rel_tol=0.0)


# ---------------------------------------------------------------- lecture 2
@register
def pcie_transfer_time(rng: random.Random) -> Variant:
    # PCIe 5.0: 4 GB/s per lane per direction (sec-2-3)
    lanes = rng.choice([1, 2, 4, 8, 16])
    gigabytes = rng.randint(2, 80)
    return Variant(
        params={"lanes": lanes, "size_gb": gigabytes},
        answer=gigabytes / (4 * lanes),
        unit="s",
    )


@register
def occupancy_registers(rng: random.Random) -> Variant:
    sm_regs = 65536
    threads_per_block = rng.choice([128, 256, 512])
    # Only configurations where at least one block fits: a kernel that cannot launch at all is
    # a different lesson (launch failure), not an occupancy calculation.
    fitting = [
        r
        for r in (24, 32, 40, 48, 56, 64, 72, 80, 96, 128, 160, 255)
        if r * threads_per_block <= sm_regs
    ]
    regs_per_thread = rng.choice(fitting)
    sm_max_threads = 2048
    blocks_by_regs = sm_regs // (regs_per_thread * threads_per_block)
    blocks_by_threads = sm_max_threads // threads_per_block
    blocks = min(blocks_by_regs, blocks_by_threads)
    warps = blocks * threads_per_block // 32
    return Variant(
        params={
            "regs": regs_per_thread,
            "threads": threads_per_block,
            "sm_regs": sm_regs,
            "sm_threads": sm_max_threads,
        },
        answer=warps,
        unit="warp",
        rel_tol=0.0,
    )


@register
def occupancy_shared_memory(rng: random.Random) -> Variant:
    smem_per_block_kb = rng.choice([6, 8, 10, 12, 16, 20, 24, 32, 40, 48])
    threads_per_block = rng.choice([64, 128, 256])
    sm_smem_kb = rng.choice([64, 96, 100, 128])
    sm_max_threads = 1536
    blocks = min(sm_smem_kb // smem_per_block_kb, sm_max_threads // threads_per_block)
    return Variant(
        params={
            "smem": smem_per_block_kb,
            "threads": threads_per_block,
            "sm_smem": sm_smem_kb,
            "sm_threads": sm_max_threads,
        },
        answer=blocks * threads_per_block,
        unit="线程",
        rel_tol=0.0,
    )


@register
def coalesced_transactions(rng: random.Random) -> Variant:
    # 32-byte aligned bus segments, 4-byte ints (sec-2-26)
    base = rng.randrange(0x1000, 0x2000, 4)
    threads = rng.choice([8, 16, 32])
    stride = rng.choice([1, 1, 2, 3, 4, 8])
    addresses = [base + 4 * stride * t for t in range(threads)]
    segments = {a & ~0x1F for a in addresses}
    return Variant(
        params={"base": f"0x{base:08X}", "threads": threads, "stride": stride},
        answer=len(segments),
        unit="次",
        rel_tol=0.0,
    )


@register
def grid_blocks(rng: random.Random) -> Variant:
    n = rng.randint(10_000, 5_000_000)
    block = rng.choice([64, 128, 256, 512, 1024])
    return Variant(
        params={"n": n, "block": block}, answer=math.ceil(n / block), unit="个", rel_tol=0.0
    )


# ---------------------------------------------------------------- lecture 3
@register
def tiled_conv_intensity(rng: random.Random) -> Variant:
    mask = rng.choice([3, 5, 7])
    tile = rng.choice([8, 12, 16, 20, 24, 32])
    out = tile - mask + 1
    ratio = out * out * mask * mask / (tile * tile)
    return Variant(params={"m": mask, "t": tile, "o": out}, answer=ratio, unit="次乘加/元素")


@register
def reduction_kernel_launches(rng: random.Random) -> Variant:
    block = rng.choice([128, 256, 512, 1024])
    n = rng.randint(10**5, 10**9)
    launches = 0
    remaining = n
    while remaining > 1:
        remaining = math.ceil(remaining / block)
        launches += 1
    return Variant(params={"n": n, "b": block}, answer=launches, unit="次", rel_tol=0.0)


@register
def interleaved_bank_conflict(rng: random.Random) -> Variant:
    # idx = 2*s*tid over 32 four-byte banks, 16 active threads of one warp (sec-3-4)
    s = rng.choice([1, 2, 4, 8, 16])
    active = 16
    banks = [(2 * s * tid) % 32 for tid in range(active)]
    ways = max(banks.count(b) for b in set(banks))
    return Variant(params={"s": s, "active": active}, answer=ways, unit="路", rel_tol=0.0)


@register
def conv_input_tile(rng: random.Random) -> Variant:
    # 2-D tiled convolution: an O x O output tile needs an (O + M - 1)^2 input tile (sec-3-9)
    o = rng.choice([8, 12, 14, 16, 28, 30, 32])
    m = rng.choice([3, 5, 7, 9])
    return Variant(params={"o": o, "m": m}, answer=(o + m - 1) ** 2, unit="个", rel_tol=0.0)


# ---------------------------------------------------------------- lecture 4
@register
def attention_hbm_ratio(rng: random.Random) -> Variant:
    n = rng.choice([1024, 2048, 4096, 8192, 16384])
    d = rng.choice([64, 128, 256])
    standard = 4 * n * d + 4 * n * n  # elements: read Q,K; write/read S; write/read P; V; write O
    flash = 4 * n * d  # read Q, K, V once, write O once (idealised)
    return Variant(params={"n": n, "d": d}, answer=standard / flash, unit="×")


@register
def attention_score_memory(rng: random.Random) -> Variant:
    n = rng.choice([2048, 4096, 8192, 16384, 32768])
    heads = rng.choice([8, 16, 32, 64])
    bytes_total = n * n * heads * 2  # FP16
    return Variant(params={"n": n, "h": heads}, answer=bytes_total / 2**30, unit="GiB")


@register
def kv_cache_size(rng: random.Random) -> Variant:
    layers = rng.choice([24, 32, 40, 48, 80])
    heads = rng.choice([8, 16, 32, 64])
    d = rng.choice([64, 128])
    n = rng.choice([2048, 4096, 8192, 32768])
    batch = rng.choice([1, 4, 8, 16])
    bytes_total = 2 * layers * heads * d * n * batch * 2  # K and V, FP16
    return Variant(
        params={"layers": layers, "heads": heads, "d": d, "n": n, "b": batch},
        answer=bytes_total / 2**30,
        unit="GiB",
    )


@register
def flash_tile_pairs(rng: random.Random) -> Variant:
    n = rng.randint(500, 9000)
    br = rng.choice([64, 128])
    bc = rng.choice([32, 64, 128])
    pairs = math.ceil(n / br) * math.ceil(n / bc)
    return Variant(params={"n": n, "br": br, "bc": bc}, answer=pairs, unit="个", rel_tol=0.0)


# ---------------------------------------------------------------- lecture 5
@register
def roofline_attainable(rng: random.Random) -> Variant:
    peak = rng.choice([19.5, 60.0, 156.0, 312.0, 495.0, 989.0])  # TFLOP/s
    bw = rng.choice([1.5, 2.0, 3.35, 4.8])  # TB/s
    ai = rng.choice([0.25, 1.0, 4.0, 16.0, 64.0, 128.0, 256.0, 512.0])  # FLOP/byte
    return Variant(
        params={"peak": peak, "bw": bw, "ai": ai}, answer=min(peak, ai * bw), unit="TFLOP/s"
    )


@register
def winograd_multiplications(rng: random.Random) -> Variant:
    m = rng.randint(2, 8)
    r = rng.choice([3, 5, 7])
    return Variant(params={"m": m, "r": r}, answer=m * r / (m + r - 1), unit="×")


@register
def fused_softmax_traffic(rng: random.Random) -> Variant:
    m = rng.choice([1024, 2048, 4096, 8192])
    n = rng.choice([128, 256, 512, 781, 1000, 2048])
    unfused = (5 * m * n + 2 * m) + (3 * m * n + 2 * m)
    fused = 2 * m * n
    return Variant(params={"m": m, "n": n}, answer=unfused / fused, unit="×")


@register
def img2col_elements(rng: random.Random) -> Variant:
    c = rng.choice([3, 16, 32, 64, 128])
    k = rng.choice([1, 3, 5, 7])
    h = rng.choice([7, 14, 28, 56, 112])
    w = rng.choice([7, 14, 28, 56])
    return Variant(
        params={"c": c, "k": k, "h": h, "w": w}, answer=c * k * k * h * w, unit="个", rel_tol=0.0
    )


# ---------------------------------------------------------------- lecture 7
@register
def gemm_intensity(rng: random.Random) -> Variant:
    n = rng.choice([256, 512, 1024, 2048, 4096, 8192])
    flops = 2 * n**3
    bytes_moved = 3 * n * n * 2  # FP16 A, B read once, C written once
    return Variant(params={"n": n}, answer=flops / bytes_moved, unit="FLOP/B")


@register
def wgmma_flops(rng: random.Random) -> Variant:
    n = 8 * rng.randint(1, 32)
    return Variant(params={"n": n}, answer=2 * 64 * n * 16, abs_tol=0.0, rel_tol=0.0, unit="FLOP")


@register
def mma_instruction_count(rng: random.Random) -> Variant:
    m = 16 * rng.randint(1, 16)
    n = 8 * rng.randint(1, 32)
    k = 16 * rng.randint(1, 16)
    count = (m // 16) * (n // 8) * (k // 16)
    return Variant(params={"m": m, "n": n, "k": k}, answer=count, unit="次", rel_tol=0.0)


@register
def gemm_tile_intensity(rng: random.Random) -> Variant:
    # One K-step of a BM x BN output tile: 2*BM*BN*BK FLOP over (BM + BN)*BK FP16 loads
    bm = rng.choice([64, 128, 256])
    bn = rng.choice([64, 128, 256])
    bk = rng.choice([16, 32, 64])
    intensity = 2 * bm * bn * bk / ((bm + bn) * bk * 2)
    return Variant(params={"bm": bm, "bn": bn, "bk": bk}, answer=intensity, unit="FLOP/B")


# ---------------------------------------------------------------- lecture 8
@register
def triton_grid_programs(rng: random.Random) -> Variant:
    m = rng.randint(300, 5000)
    n = rng.randint(300, 5000)
    bm = rng.choice([32, 64, 128])
    bn = rng.choice([32, 64, 128, 256])
    return Variant(
        params={"m": m, "n": n, "bm": bm, "bn": bn},
        answer=math.ceil(m / bm) * math.ceil(n / bn),
        unit="个",
        rel_tol=0.0,
    )


@register
def triton_masked_lanes(rng: random.Random) -> Variant:
    block = rng.choice([128, 256, 512, 1024, 2048])
    n = rng.randint(1000, 1_000_000)
    return Variant(
        params={"n": n, "block": block},
        answer=math.ceil(n / block) * block - n,
        unit="个",
        rel_tol=0.0,
    )


@register
def elementwise_fusion_traffic(rng: random.Random) -> Variant:
    ops = rng.randint(2, 6)
    n_million = rng.choice([1, 4, 16, 64, 256])
    # unfused: each op reads and writes N FP32 values; fused: read once, write once
    saved_mb = 8 * (ops - 1) * n_million  # 1 MB = 10^6 B
    return Variant(params={"k": ops, "n": n_million}, answer=saved_mb, unit="MB", rel_tol=0.0)


# ---------------------------------------------------------------- lecture 9
@register
def zero_memory_per_gpu(rng: random.Random) -> Variant:
    psi_b = rng.choice([1.3, 3, 7, 13, 30, 70])  # parameters, billions
    gpus = rng.choice([8, 16, 32, 64])
    stage = rng.choice([0, 1, 2, 3])
    k = 12  # bytes of FP32 optimizer state per parameter (sec-9-1)
    per_param = {
        0: 2 + 2 + k,
        1: 2 + 2 + k / gpus,
        2: 2 + (2 + k) / gpus,
        3: (2 + 2 + k) / gpus,
    }[stage]
    return Variant(
        params={"psi": psi_b, "nd": gpus, "stage": stage, "k": k},
        answer=per_param * psi_b,  # 1e9 params × bytes = GB
        unit="GB",
    )


@register
def pipeline_bubble(rng: random.Random) -> Variant:
    k = rng.choice([2, 4, 6, 8, 12, 16])
    m = rng.choice([1, 2, 4, 8, 16, 32, 64])
    return Variant(params={"k": k, "m": m}, answer=(k - 1) / (m + k - 1), unit="")


@register
def hybrid_dp_degree(rng: random.Random) -> Variant:
    tp = rng.choice([2, 4, 8])
    pp = rng.choice([2, 4, 8, 16])
    dp = rng.choice([2, 4, 8, 16, 32])
    return Variant(params={"total": tp * pp * dp, "tp": tp, "pp": pp}, answer=dp, rel_tol=0.0)


@register
def interleaved_bubble(rng: random.Random) -> Variant:
    k = rng.choice([4, 8, 16])
    m = rng.choice([8, 16, 32, 64])
    v = rng.choice([2, 4])
    return Variant(params={"k": k, "m": m, "v": v}, answer=(k - 1) / (v * m), unit="")


# ---------------------------------------------------------------- lecture 10
@register
def ring_allreduce_cost(rng: random.Random) -> Variant:
    p = rng.choice([4, 8, 16, 32, 64])
    n_mb = rng.choice([1, 4, 16, 64, 256])  # message size, MB
    alpha_us = rng.choice([2, 5, 10, 20])  # per-message latency, µs
    bw_gbs = rng.choice([10, 25, 50, 100])  # link bandwidth, GB/s -> beta = 1/bw
    beta_us_per_mb = 1e6 / (bw_gbs * 1000)  # µs per MB
    cost = 2 * (p - 1) * alpha_us + 2 * (p - 1) / p * n_mb * beta_us_per_mb
    return Variant(
        params={"p": p, "n": n_mb, "alpha": alpha_us, "bw": bw_gbs}, answer=cost, unit="µs"
    )


@register
def mst_broadcast_cost(rng: random.Random) -> Variant:
    p = rng.randint(3, 200)
    n_kb = rng.choice([1, 8, 64, 512])
    alpha_us = rng.choice([1, 2, 5, 10])
    beta_us_per_kb = rng.choice([0.01, 0.02, 0.1])
    cost = math.ceil(math.log2(p)) * (alpha_us + n_kb * beta_us_per_kb)
    return Variant(
        params={"p": p, "n": n_kb, "alpha": alpha_us, "beta": beta_us_per_kb},
        answer=cost,
        unit="µs",
    )


@register
def pipelined_broadcast_rounds(rng: random.Random) -> Variant:
    p = rng.randint(4, 64)
    k = rng.randint(2, 64)
    return Variant(params={"p": p, "k": k}, answer=p + k - 2, unit="轮", rel_tol=0.0)


@register
def ring_allgather_cost(rng: random.Random) -> Variant:
    p = rng.choice([4, 8, 16, 32, 64])
    n_mb = rng.choice([1, 8, 64, 256])
    alpha_us = rng.choice([2, 5, 10])
    bw_gbs = rng.choice([25, 50, 100])
    beta_us_per_mb = 1e6 / (bw_gbs * 1000)
    cost = (p - 1) * alpha_us + (p - 1) / p * n_mb * beta_us_per_mb
    return Variant(
        params={"p": p, "n": n_mb, "alpha": alpha_us, "bw": bw_gbs}, answer=cost, unit="µs"
    )


@register
def halving_doubling_allreduce_cost(rng: random.Random) -> Variant:
    p = rng.choice([4, 8, 16, 32, 64, 128])
    n_kb = rng.choice([4, 16, 64, 256])
    alpha_us = rng.choice([1, 2, 5])
    beta_us_per_kb = rng.choice([0.01, 0.02, 0.05])
    cost = 2 * math.log2(p) * alpha_us + 2 * (p - 1) / p * n_kb * beta_us_per_kb
    return Variant(
        params={"p": p, "n": n_kb, "alpha": alpha_us, "beta": beta_us_per_kb},
        answer=cost,
        unit="µs",
    )
