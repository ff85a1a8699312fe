"""A softmax corpus for the similarity tests and bench/similarity.py: every submission starts from
the package's starter (imports, kernel header, wrapper) and fills it in its own way.

INDEPENDENT holds 17 genuinely different kernels (one row per program, online and three-pass loops,
exp2, several rows per program, persistent grids, log-sum-exp, two kernels, strided rows, …).
`disguise` is what a copier does: renames variables, swaps independent statements, changes
constants. OBVIOUS_FIX is the starter plus the one-line answer most students would write.
"""

from __future__ import annotations

import random
import re

from gradinglab.runner.problems import load_problem

HEADER = """import torch
import triton
import triton.language as tl
"""

WRAPPER = """

def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    BLOCK = triton.next_power_of_2(n_cols)
    softmax_kernel[(n_rows,)](x, out, n_cols, BLOCK=BLOCK)
"""

PRELUDE = """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
"""


def starter() -> str:
    return load_problem("softmax").starter("triton")


def _tiled_wrapper(block: int) -> str:
    """The starter's wrapper with a fixed tile of ``block`` columns (for kernels that loop over
    a row in tiles) instead of one block as wide as the row."""
    return f"""

def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, out, n_cols, BLOCK={block})
"""


def _full(body: str, helpers: str = "") -> str:
    """Starter prelude and wrapper around a kernel body (the common case), with the ``helpers``
    (jit functions the body calls) between the imports and the kernel."""
    return HEADER + helpers + PRELUDE + body + WRAPPER


INDEPENDENT: list[str] = [
    # 0: safe softmax with where-masking and an explicit reciprocal
    _full("""    ptrs = x_ptr + row * n_cols + offs
    vals = tl.load(ptrs, mask=mask, other=0.0)
    vals = tl.where(mask, vals.to(tl.float32), float("-inf"))
    peak = tl.max(vals, axis=0)
    e = tl.exp(vals - peak)
    e = tl.where(mask, e, 0.0)
    inv = 1.0 / tl.sum(e, axis=0)
    tl.store(out_ptr + row * n_cols + offs, e * inv, mask=mask)
"""),
    # 1: exp2 with a log2(e) scale, results cast to the output's element type
    _full("""    LOG2E: tl.constexpr = 1.4426950408889634
    src = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf"))
    src = src.to(tl.float32) * LOG2E
    hi = tl.max(src, 0)
    p = tl.math.exp2(src - hi)
    total = tl.sum(p, 0)
    res = (p / total).to(out_ptr.dtype.element_ty)
    tl.store(out_ptr + row * n_cols + offs, res, mask=mask)
"""),
    # 2: log-sum-exp form: out = exp(x - (max + log(sum)))
    _full("""    a = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf")).to(tl.float32)
    mx = tl.max(a, axis=0)
    lse = mx + tl.log(tl.sum(tl.exp(a - mx), axis=0))
    tl.store(out_ptr + row * n_cols + offs, tl.exp(a - lse), mask=mask)
"""),
    # 3: three passes over column tiles (max, then sum, then write), fixed tile of 256
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    r = tl.program_id(0)
    start_ptr = x_ptr + r * n_cols
    best = -float("inf")
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        t = tl.load(start_ptr + cols, mask=cols < n_cols, other=-float("inf"))
        best = tl.maximum(best, tl.max(t.to(tl.float32), axis=0))
    acc = 0.0
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        t = tl.load(start_ptr + cols, mask=cols < n_cols, other=-float("inf"))
        acc += tl.sum(tl.exp(t.to(tl.float32) - best), axis=0)
    for c0 in range(0, n_cols, BLOCK):
        cols = c0 + tl.arange(0, BLOCK)
        keep = cols < n_cols
        t = tl.load(start_ptr + cols, mask=keep, other=-float("inf")).to(tl.float32)
        tl.store(out_ptr + r * n_cols + cols, tl.exp(t - best) / acc, mask=keep)
"""
    + _tiled_wrapper(256),
    # 4: several rows per program with a 2-D block
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, ROWS: tl.constexpr, BLOCK: tl.constexpr):
    first = tl.program_id(0) * ROWS
    rr = first + tl.arange(0, ROWS)[:, None]
    cc = tl.arange(0, BLOCK)[None, :]
    inside = (rr < n_rows) & (cc < n_cols)
    tile = tl.load(x_ptr + rr * n_cols + cc, mask=inside, other=-float("inf")).to(tl.float32)
    tile = tile - tl.max(tile, axis=1)[:, None]
    ex = tl.exp(tile)
    ex = ex / tl.sum(ex, axis=1)[:, None]
    tl.store(out_ptr + rr * n_cols + cc, ex, mask=inside)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    rows_per_prog = 4
    grid = (triton.cdiv(n_rows, rows_per_prog),)
    softmax_kernel[grid](x, out, n_rows, n_cols, ROWS=rows_per_prog,
                         BLOCK=triton.next_power_of_2(n_cols))
""",
    # 5: persistent grid of 8 programs striding over the rows
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    me = tl.program_id(0)
    stride = tl.num_programs(0)
    lanes = tl.arange(0, BLOCK)
    ok = lanes < n_cols
    for i in range(me, n_rows, stride):
        v = tl.load(x_ptr + i * n_cols + lanes, mask=ok, other=-float("inf"))
        v = v.to(tl.float32)
        z = tl.exp(v - tl.max(v, axis=0))
        tl.store(out_ptr + i * n_cols + lanes, z / tl.sum(z, axis=0), mask=ok)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    rows, cols = x.shape
    programs = min(rows, 8)
    softmax_kernel[(programs,)](x, out, rows, cols, BLOCK=triton.next_power_of_2(cols))
""",
    # 6: two kernels: row statistics into scratch buffers, then a normalising pass
    HEADER
    + """

@triton.jit
def stats_kernel(x_ptr, max_ptr, sum_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    data = tl.load(x_ptr + row * n_cols + idx, mask=idx < n_cols, other=-float("inf"))
    data = data.to(tl.float32)
    m = tl.max(data, axis=0)
    tl.store(max_ptr + row, m)
    tl.store(sum_ptr + row, tl.sum(tl.exp(data - m), axis=0))


@triton.jit
def softmax_kernel(x_ptr, out_ptr, max_ptr, sum_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    idx = tl.arange(0, BLOCK)
    valid = idx < n_cols
    data = tl.load(x_ptr + row * n_cols + idx, mask=valid, other=0.0).to(tl.float32)
    m = tl.load(max_ptr + row)
    s = tl.load(sum_ptr + row)
    tl.store(out_ptr + row * n_cols + idx, tl.exp(data - m) / s, mask=valid)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    BLOCK = triton.next_power_of_2(n_cols)
    row_max = torch.empty(n_rows, device=x.device, dtype=torch.float32)
    row_sum = torch.empty_like(row_max)
    stats_kernel[(n_rows,)](x, row_max, row_sum, n_cols, BLOCK=BLOCK)
    softmax_kernel[(n_rows,)](x, out, row_max, row_sum, n_cols, BLOCK=BLOCK)
""",
    # 7: strided rows (the wrapper passes x.stride(0)) and num_warps chosen from the width
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, x_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    c = tl.arange(0, BLOCK)
    m = c < n_cols
    line = tl.load(x_ptr + pid * x_stride + c, mask=m, other=float("-inf"))
    line = line.to(tl.float32)
    top = tl.max(line, axis=0)
    numer = tl.exp(line - top)
    denom = tl.sum(numer, axis=0)
    tl.store(out_ptr + pid * out_stride + c, numer / denom, mask=m)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    block = triton.next_power_of_2(n_cols)
    warps = 4 if block <= 2048 else 8
    softmax_kernel[(n_rows,)](
        x, out, x.stride(0), out.stride(0), n_cols, BLOCK=block, num_warps=warps
    )
""",
    # 8: online single pass with running max and rescaled sum, then a write pass, while loops
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    row_in = x_ptr + row * n_cols
    row_out = out_ptr + row * n_cols
    running_max = float("-inf")
    running_sum = 0.0
    j = 0
    while j < n_cols:
        k = j + tl.arange(0, BLOCK)
        chunk = tl.load(row_in + k, mask=k < n_cols, other=float("-inf")).to(tl.float32)
        new_max = tl.maximum(running_max, tl.max(chunk, 0))
        running_sum = running_sum * tl.exp(running_max - new_max) + tl.sum(
            tl.exp(chunk - new_max), 0
        )
        running_max = new_max
        j += BLOCK
    j = 0
    while j < n_cols:
        k = j + tl.arange(0, BLOCK)
        chunk = tl.load(row_in + k, mask=k < n_cols, other=0.0).to(tl.float32)
        tl.store(row_out + k, tl.exp(chunk - running_max) / running_sum, mask=k < n_cols)
        j += BLOCK
"""
    + _tiled_wrapper(1024),
    # 9: helper jit functions for the reductions
    _full(
        """    here = row * n_cols + offs
    w = tl.load(x_ptr + here, mask=mask, other=-float("inf")).to(tl.float32)
    tl.store(out_ptr + here, _normalise(tl.exp(w - _row_max(w))), mask=mask)
""",
        helpers="""

@triton.jit
def _row_max(v):
    return tl.max(v, axis=0)


@triton.jit
def _normalise(e):
    return e / tl.sum(e, axis=0)
""",
    ),
    # 10: float16-aware: compute in fp32 only when the input is half, fma-style scaling
    _full("""    raw = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-65504.0)
    f = raw.to(tl.float32)
    f = tl.where(mask, f, -float("inf"))
    shift = f - tl.max(f, axis=0)
    ex = tl.math.exp(shift)
    scale = tl.math.div_rn(1.0, tl.sum(ex, axis=0))
    outv = ex * scale
    tl.store(out_ptr + row * n_cols + offs, outv.to(raw.dtype), mask=mask)
"""),
    # 11: a class-based launcher caching block sizes per width
    HEADER
    + PRELUDE
    + """    q = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf")).to(tl.float32)
    numerator = tl.exp(q - tl.max(q, axis=0))
    tl.store(out_ptr + row * n_cols + offs, numerator / tl.sum(numerator, axis=0), mask=mask)


class _Launcher:
    def __init__(self):
        self.blocks = {}

    def block_for(self, width):
        if width not in self.blocks:
            self.blocks[width] = max(16, triton.next_power_of_2(width))
        return self.blocks[width]

    def __call__(self, x, out):
        height, width = x.shape
        softmax_kernel[(height,)](x, out, width, BLOCK=self.block_for(width))


_launch = _Launcher()


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    _launch(x, out)
""",
    # 12: reduction with tl.reduce and a custom combine function
    _full(
        """    g = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-float("inf")).to(tl.float32)
    gmax = tl.reduce(g, 0, _bigger)
    ge = tl.exp(g - gmax)
    gsum = tl.reduce(ge, 0, _plus)
    tl.store(out_ptr + row * n_cols + offs, ge / gsum, mask=mask)
""",
        helpers="""

@triton.jit
def _bigger(a, b):
    return tl.where(a > b, a, b)


@triton.jit
def _plus(a, b):
    return a + b
""",
    ),
    # 13: column-tiled with accumulation in vectors, reduced once at the end (two loops)
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, TILE: tl.constexpr):
    rid = tl.program_id(0).to(tl.int64)
    base_in = x_ptr + rid * n_cols
    base_out = out_ptr + rid * n_cols
    lane = tl.arange(0, TILE)
    vmax = tl.full((TILE,), float("-inf"), tl.float32)
    for off in tl.range(0, n_cols, TILE):
        pos = off + lane
        vmax = tl.maximum(vmax, tl.load(base_in + pos, mask=pos < n_cols, other=float("-inf")))
    m = tl.max(vmax, 0)
    vsum = tl.zeros((TILE,), tl.float32)
    for off in tl.range(0, n_cols, TILE):
        pos = off + lane
        y = tl.load(base_in + pos, mask=pos < n_cols, other=float("-inf")).to(tl.float32)
        y = tl.exp(y - m)
        vsum += y
        tl.store(base_out + pos, y, mask=pos < n_cols)
    s = tl.sum(vsum, 0)
    for off in tl.range(0, n_cols, TILE):
        pos = off + lane
        y = tl.load(base_out + pos, mask=pos < n_cols, other=0.0)
        tl.store(base_out + pos, y / s, mask=pos < n_cols)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, out, n_cols, TILE=128, num_warps=2)
""",
    # 14: autotuned over num_warps with a key on the row length
    HEADER
    + """

@triton.autotune(
    configs=[triton.Config({}, num_warps=w) for w in (1, 2, 4, 8)],
    key=["n_cols"],
)
@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    valid = cols < n_cols
    src = x_ptr + row * n_cols
    xs = tl.load(src + cols, valid, other=-float("inf"))
    xs = xs.to(tl.float32)
    xs = xs - tl.max(xs, 0)
    xs = tl.exp(xs)
    xs = xs / tl.sum(xs, 0)
    tl.store(out_ptr + row * n_cols + cols, xs, valid)
"""
    + WRAPPER,
    # 15: temperature-style scaling folded in, sum via dot with a ones vector
    _full("""    t = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=-1e30)
    t = t.to(tl.float32)
    t = tl.where(mask, t, -1e30)
    c = tl.max(t, axis=0)
    u = tl.where(mask, tl.exp(t - c), 0.0)
    norm = tl.sum(u, axis=0) + 1e-30
    y = u / norm
    tl.store(out_ptr + offs + row * n_cols, y, mask=mask)
"""),
    # 16: int64 row offsets, block pointer API
    HEADER
    + """

@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    src = tl.make_block_ptr(x_ptr, shape=(n_rows, n_cols), strides=(n_cols, 1),
                            offsets=(row, 0), block_shape=(1, BLOCK), order=(1, 0))
    dst = tl.make_block_ptr(out_ptr, shape=(n_rows, n_cols), strides=(n_cols, 1),
                            offsets=(row, 0), block_shape=(1, BLOCK), order=(1, 0))
    h = tl.load(src, boundary_check=(0, 1), padding_option="zero").to(tl.float32)
    cols = tl.arange(0, BLOCK)[None, :]
    h = tl.where(cols < n_cols, h, float("-inf"))
    h = tl.exp(h - tl.max(h, axis=1, keep_dims=True))
    h = h / tl.sum(h, axis=1, keep_dims=True)
    tl.store(dst, h, boundary_check=(0, 1))


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, out, n_rows, n_cols, BLOCK=triton.next_power_of_2(n_cols))
""",
]

# The starter with its TODO replaced by the answer almost everyone writes first.
OBVIOUS_LINE = (
    "    tl.store(out_ptr + row * n_cols + offs, tl.softmax(tl.load(x_ptr + row * n_cols + offs,"
    ' mask=mask, other=-float("inf")).to(tl.float32)), mask=mask)\n'
)


def obvious_fix() -> str:
    text = starter()
    lines = text.splitlines(keepends=True)
    todo = [i for i, line in enumerate(lines) if line.strip().startswith("# TODO")]
    end = todo[0]
    while end + 1 < len(lines) and lines[end + 1].strip().startswith("#"):
        end += 1
    return "".join(lines[: todo[0]] + [OBVIOUS_LINE] + lines[end + 1 :])


def disguise(source: str, rng: random.Random) -> str:
    """What a copier does: rename every local name, swap two adjacent independent statements,
    change the numeric constants, and reword nothing else."""
    assigned = set(re.findall(r"\b([a-z_][a-z0-9_]*)\s*=(?!=)", source))
    params = {
        part.split(":")[0].strip()
        for group in re.findall(r"def \w+\(([^)]*)\)", source)
        for part in group.split(",")
    }
    names = sorted((assigned | params) - _KEEP - {""})
    for name in names:
        source = re.sub(rf"\b{name}\b", f"{name}_{rng.choice('qzkw')}{rng.randint(1, 9)}", source)
    source = re.sub(r"(?<![\w.])([2-9]|[1-9]\d+)(?![\w.])", lambda m: str(int(m[1]) * 2), source)
    source = re.sub(r"\b(\d+\.\d+)\b", lambda m: str(float(m[1]) * 1.0001), source)
    lines = source.splitlines(keepends=True)
    swappable = [i for i in range(len(lines) - 1) if _independent(lines[i], lines[i + 1])]
    for i in rng.sample(swappable, min(2, len(swappable))):
        lines[i], lines[i + 1] = lines[i + 1], lines[i]
    return "".join(lines)


# Names a copier cannot rename without breaking the entry point or the API.
_KEEP = {"mask", "other", "axis", "num_warps", "key", "configs", "shape", "strides", "offsets",
         "block_shape", "order", "boundary_check", "padding_option", "keep_dims", "device",
         "dtype", "n_rows", "n_cols", "x", "out"}  # fmt: skip


def _independent(first: str, second: str) -> bool:
    """Two simple assignments at one indentation where neither reads what the other writes."""
    pattern = re.compile(r"^(\s+)([a-z_][a-z0-9_]*) = (.+)$")
    a, b = pattern.match(first.rstrip("\n")), pattern.match(second.rstrip("\n"))
    if not a or not b or a[1] != b[1]:
        return False
    return not re.search(rf"\b{a[2]}\b", b[3]) and not re.search(rf"\b{b[2]}\b", a[3])


def corpus(seed: int = 17) -> dict[str, str]:
    """20 students: three copiers (each a disguised copy of another's kernel) and 17 others."""
    rng = random.Random(seed)
    sources = {f"s{i:02d}": source for i, source in enumerate(INDEPENDENT)}
    for n, original in enumerate(("s00", "s05", "s08")):
        sources[f"c{n}"] = disguise(sources[original], rng)
    return sources


COPIED_PAIRS = {frozenset({"s00", "c0"}), frozenset({"s05", "c1"}), frozenset({"s08", "c2"})}
