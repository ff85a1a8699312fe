"""The lectures' diagrams (编者补充): SVG written by code, so they are reproducible and reviewable.

The notes lost every slide image. Each figure here redraws one standard textbook picture of the
course (memory hierarchy, coalescing, reduction tree, roofline, ring all-reduce, ...) from a few
lines of Python, once per page language (every label is ``say(chinese, english)``);
``python -m lectures.figures`` writes them to ``content/figures/<slug>.svg`` (Chinese) and
``<slug>.en.svg`` (English), and ``lectures/tests/test_figures.py`` checks that running it again
gives the committed files byte for byte. ``lectures.convert_notes`` puts a ``!figure <slug>`` line
right after the heading of the section a figure explains; ``lectures.rendering`` stores a slot for
it at import time, and the page fills the slot with the figure and caption in the reader's
language (``in_language``), so a page shows one language at a time.

Drawn for both light and dark pages: lines and text use ``currentColor`` (the page's text colour,
since the SVG is inline) and fills are translucent, so no colour is ever assumed for the
background. No ``style`` attributes or elements (the site's CSP forbids inline styles), no
scripts, no external fonts or images.
"""

from __future__ import annotations

import functools
import html
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
FIGURE_DIR = REPO_ROOT / "content" / "figures"

# Translucent accents that read on white and on near-black alike (fill-opacity below).
BLUE, AMBER, GREEN, RED, PURPLE = "#3b82f6", "#f59e0b", "#10b981", "#ef4444", "#8b5cf6"
FONT = "sans-serif"


LANGS = ("zh", "en")  # accounts.language.page_lang(): a figure is drawn once per page language
Say = Callable[[str, str], str]  # say(chinese, english): the words of the language being drawn


def sayer(lang: str) -> Say:
    return (lambda zh, en: zh) if lang == "zh" else (lambda zh, en: en)


@dataclass(frozen=True)
class Figure:
    slug: str
    section: str  # the notes' number N.M or N.M.K of the section it explains
    title: tuple[str, str]  # <title>: (Chinese, English)
    desc: tuple[str, str]  # <desc>: what the picture shows, for screen readers
    caption: tuple[str, str]
    width: int
    height: int
    draw: Callable[[Say], list[str]]

    @property
    def caption_zh(self) -> str:
        return self.caption[0]

    @property
    def caption_en(self) -> str:
        return self.caption[1]


# ----------------------------------------------------------------------------- primitives
def _n(value: float) -> str:
    """Numbers printed the same way on every run and platform."""
    return f"{value:.1f}".rstrip("0").rstrip(".")


def rect(x, y, w, h, fill=None, opacity=0.18, stroke=True, rx=3) -> str:
    fill_attr = f'fill="{fill}" fill-opacity="{opacity}"' if fill else 'fill="none"'
    stroke_attr = ' stroke="currentColor" stroke-width="1.2"' if stroke else ""
    return (
        f'<rect x="{_n(x)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="{rx}" '
        f"{fill_attr}{stroke_attr}/>"
    )


def text(x, y, label, size=12, anchor="middle", weight="normal") -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text x="{_n(x)}" y="{_n(y)}" font-size="{size}" text-anchor="{anchor}"{bold} '
        f'fill="currentColor">{html.escape(label)}</text>'
    )


def line(x1, y1, x2, y2, arrow=False, dash=False, width=1.2) -> str:
    extra = ' marker-end="url(#arrow)"' if arrow else ""
    extra += ' stroke-dasharray="4 3"' if dash else ""
    return (
        f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
        f'stroke="currentColor" stroke-width="{width}"{extra}/>'
    )


def polyline(points, width=1.6, color="currentColor", dash=False) -> str:
    pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in points)
    extra = ' stroke-dasharray="5 4"' if dash else ""
    return f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="{width}"{extra}/>'


def circle(cx, cy, r, fill=None, opacity=0.2) -> str:
    fill_attr = f'fill="{fill}" fill-opacity="{opacity}"' if fill else 'fill="none"'
    return (
        f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" {fill_attr} '
        f'stroke="currentColor" stroke-width="1.2"/>'
    )


ARROW_DEF = (
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
    'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
    'fill="currentColor"/></marker></defs>'
)


def svg(figure: Figure, lang: str = "zh") -> str:
    """The whole SVG document of ``figure`` in ``lang``, one element per line, no blank lines."""
    say = sayer(lang)
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {figure.width} {figure.height}" '
        f'width="{figure.width}" height="{figure.height}" role="img" '
        f'aria-labelledby="fig-{figure.slug}-title fig-{figure.slug}-desc" '
        f'font-family="{FONT}" color="currentColor">'
    )
    parts = [
        head,
        f'<title id="fig-{figure.slug}-title">{html.escape(say(*figure.title))}</title>',
        f'<desc id="fig-{figure.slug}-desc">{html.escape(say(*figure.desc))}</desc>',
        ARROW_DEF,
        *figure.draw(say),
        "</svg>",
    ]
    # The SVG is inline and a page shows several: each needs its own marker id (ids are unique
    # per page, and a duplicate is an accessibility error).
    return (
        "\n".join(parts)
        .replace("#arrow)", f"#arrow-{figure.slug})")
        .replace('id="arrow"', f'id="arrow-{figure.slug}"')
        + "\n"
    )


# ----------------------------------------------------------------------------- the figures
def _memory_hierarchy(say: Say) -> list[str]:
    rows = [
        (
            say("寄存器 / SRAM（L1、共享内存）", "Registers / SRAM (L1, shared)"),
            "~19 TB/s",
            say("共约 20 MB", "~20 MB total"),
            GREEN,
            230,
        ),
        (say("HBM（GPU 显存）", "HBM (GPU memory)"), "~1.5 TB/s", "40 GB", BLUE, 300),
        (say("CPU 内存（DRAM）", "CPU DRAM"), "~12.8 GB/s", "> 1 TB", AMBER, 370),
    ]
    out = [
        text(
            260,
            22,
            say("更快、更小 ↑        更慢、更大 ↓", "faster, smaller ↑        slower, larger ↓"),
            12,
        )
    ]
    for i, (name, bw, cap, color, width) in enumerate(rows):
        y = 40 + i * 62
        x = 260 - width / 2
        out.append(rect(x, y, width, 48, color, 0.25))
        out.append(text(260, y + 20, name, 13, weight="bold"))
        out.append(text(260, y + 38, f"{bw} · {cap}", 12))
    out.append(
        text(
            260,
            242,
            say("A100 40GB（Dao 等，2022，图 1）", "A100 40GB (Dao et al., 2022, Fig. 1)"),
            11,
        )
    )
    return out


def _simt_divergence(say: Say) -> list[str]:
    out = [
        text(
            20,
            22,
            say("一个 warp：", "one warp: ") + "if (tid % 2 == 0) work_a(); else work_b();",
            12,
            "start",
        )
    ]
    lanes = 8
    for lane in range(lanes):
        y = 40 + lane * 18
        out.append(text(48, y + 12, f"t{lane}", 11, "end"))
        even = lane % 2 == 0
        out.append(rect(60, y, 160, 14, GREEN if even else None, 0.35 if even else 0))
        out.append(rect(220, y, 140, 14, None if even else AMBER, 0 if even else 0.35))
    out.append(
        text(
            140, 198, say("if 分支：t1（奇数 lane 被屏蔽）", "if-branch: t1 (odd lanes masked)"), 11
        )
    )
    out.append(text(290, 198, say("else 分支：t2", "else-branch: t2"), 11))
    out.append(line(60, 212, 360, 212, arrow=True))
    out.append(
        text(
            210,
            228,
            say(
                "warp 耗时 = t1 + t2（两条路径先后执行）",
                "warp time = t1 + t2 (paths run one after the other)",
            ),
            12,
        )
    )
    return out


def _coalescing(say: Say) -> list[str]:
    out = [
        text(
            20,
            20,
            say(
                "int X[16] 起始于 0x1232，16 个线程各读 X[t]（每个 4 B）",
                "int X[16] from 0x1232, 16 threads read X[t] (4 B each)",
            ),
            12,
            "start",
        )
    ]
    base, seg = 0x1220, 32
    for s in range(3):
        x = 30 + s * 160
        out.append(rect(x, 34, 156, 34, BLUE, 0.12))
        out.append(text(x + 78, 56, say("段", "segment") + f" 0x{base + s * seg:04X}", 11))
    for t in range(16):
        addr = 0x1232 + 4 * t
        x = 30 + (addr - base) * 160 / seg
        out.append(rect(x, 78, 4 * 160 / seg - 2, 16, GREEN, 0.45, rx=1))
        if t % 4 == 0:
            out.append(text(x + 9, 110, f"t{t}", 10))
    out.append(
        text(
            270,
            140,
            say(
                "3 次 32 B 的总线事务（数组按 32 B 对齐时为 2 次）",
                "3 bus transactions of 32 B (2 if the array were 32 B aligned)",
            ),
            12,
        )
    )
    out.append(
        text(270, 160, say("有用数据：读取的 96 B 中的 64 B", "useful: 64 B of 96 B read"), 12)
    )
    return out


def _shared_banks(say: Say) -> list[str]:
    out = [
        text(
            250,
            18,
            say(
                "32 个 bank，每个 4 B：bank = (地址 / 4) mod 32",
                "32 banks, 4 B each: bank = (address / 4) mod 32",
            ),
            12,
        )
    ]
    for row, (label, banks, note) in enumerate(
        [
            (
                say("交错寻址 s = 16", "interleaved s = 16"),
                [0] * 16,
                "idx = 2·s·tid → "
                + say("16 个线程都在 bank 0：16 路冲突", "all 16 on bank 0: 16-way conflict"),
            ),
            (
                say("连续寻址", "sequential"),
                list(range(16)),
                "idx = tid → " + say("16 个不同的 bank：无冲突", "16 different banks: no conflict"),
            ),
        ]
    ):
        y0 = 34 + row * 110
        out.append(text(20, y0 + 10, label, 12, "start", "bold"))
        for b in range(16):
            x = 20 + b * 29
            hits = banks.count(b)
            out.append(rect(x, y0 + 20, 26, 40, RED if hits > 1 else GREEN, 0.12 + 0.03 * hits))
            out.append(text(x + 13, y0 + 36, f"b{b}", 9))
            if hits:
                out.append(text(x + 13, y0 + 54, f"×{hits}", 10, weight="bold"))
        out.append(text(20, y0 + 80, note, 11, "start"))
    return out


def _reduction_tree(say: Say) -> list[str]:
    out = [
        text(
            260,
            18,
            say(
                "连续寻址的树形归约，8 个数：3 轮",
                "sequential-addressing tree reduction of 8 values: 3 rounds",
            ),
            12,
        )
    ]
    values = [3, 1, 7, 0, 4, 1, 6, 3]
    level, y = values, 40
    stride = 4
    while True:
        for i, v in enumerate(level):
            x = 40 + i * 58
            out.append(rect(x, y, 46, 26, GREEN if i == 0 and len(level) == 1 else BLUE, 0.2))
            out.append(text(x + 23, y + 18, str(v), 12))
        if len(level) == 1:
            break
        half = len(level) // 2
        for i in range(half):
            out.append(line(40 + i * 58 + 23, y + 26, 40 + i * 58 + 23, y + 56, arrow=True))
            out.append(line(40 + (i + half) * 58 + 23, y + 26, 40 + i * 58 + 30, y + 56, dash=True))
        out.append(text(510, y + 46, f"s = {stride}", 11, "end"))
        level = [level[i] + level[i + half] for i in range(half)]
        stride //= 2
        y += 64
    out.append(
        text(
            260,
            y + 50,
            say("每轮：", "each round: ")
            + "if (tid < s) sdata[tid] += sdata[tid + s]; __syncthreads()",
            11,
        )
    )
    return out


def _tiling(say: Say) -> list[str]:
    out = [
        text(
            250,
            18,
            say(
                "二维分块卷积，5×5 滤波器（半径 2）", "2-D tiled convolution, 5×5 filter (radius 2)"
            ),
            12,
        )
    ]
    cell, n = 18, 12
    x0, y0 = 140, 32
    for r in range(n):
        for c in range(n):
            inner = 2 <= r < 10 and 2 <= c < 10
            out.append(rect(x0 + c * cell, y0 + r * cell, cell, cell, GREEN if inner else AMBER,
                            0.35 if inner else 0.3, rx=0))  # fmt: skip
    out.append(rect(x0 + 2 * cell, y0 + 2 * cell, 8 * cell, 8 * cell, None, rx=0))
    out.append(
        text(
            x0 + 6 * cell,
            y0 + 6 * cell + 4,
            say("输出 tile 8×8", "output tile 8×8"),
            12,
            weight="bold",
        )
    )
    out.append(
        text(
            x0 + 6 * cell,
            y0 + n * cell + 18,
            say(
                "输入 tile (8 + 2·2)² = 12×12：外圈即 halo",
                "input tile (8 + 2·2)² = 12×12: outer ring = halo",
            ),
            12,
        )
    )
    note = say("halo：\n相邻 tile\n的输入", "halo:\ninputs of\nneighbouring\ntiles")
    for k, row in enumerate(note.split("\n")):
        out.append(text(78, 80 + 16 * k, row, 11, "end"))
    out.append(line(82, 100, x0 + 4, 100, arrow=True))
    out.append(
        text(
            250,
            340,
            say(
                "数组之外的 ghost 元素按 0 载入", "ghost cells (outside the array) are loaded as 0"
            ),
            11,
        )
    )
    return out


def _roofline(say: Say) -> list[str]:
    out = [text(250, 18, "Roofline" + say("：", ": ") + "P = min(π, I · β)", 13, weight="bold")]
    x0, y0, w, h = 60, 250, 400, 210
    out.append(line(x0, y0, x0 + w, y0, arrow=True))
    out.append(line(x0, y0, x0, y0 - h, arrow=True))
    out.append(
        text(
            x0 + w,
            y0 + 30,
            say("算术强度 I（FLOP/B，对数）", "arithmetic intensity I (FLOP/B, log)"),
            11,
            "end",
        )
    )
    out.append(text(x0 - 8, y0 - h + 10, "P", 12, "end"))
    ridge = (x0 + 220, y0 - 170)
    out.append(polyline([(x0, y0 - 20), ridge, (x0 + w - 10, y0 - 170)], 2.2, BLUE))
    out.append(line(ridge[0], ridge[1], ridge[0], y0, dash=True))
    out.append(text(ridge[0], y0 + 16, "I* = π / β", 11))
    out.append(text(x0 + 90, y0 - 110, say("访存受限", "memory-bound"), 12, weight="bold"))
    out.append(text(x0 + 90, y0 - 94, "P = I · β", 11))
    out.append(
        text(x0 + 320, y0 - 182, say("计算受限：", "compute-bound: ") + "P = π", 12, weight="bold")
    )
    for label, x, y in [
        (say("逐元素运算、归约", "element-wise, reduction"), x0 + 40, y0 - 34),
        (say("大 GEMM", "large GEMM"), x0 + 330, y0 - 170),
    ]:
        out.append(circle(x, y, 5, AMBER, 0.8))
        out.append(text(x + 8, y + 18, label, 10, "start"))
    return out


def _flash_tiling(say: Say) -> list[str]:
    out = [
        text(
            260,
            18,
            say(
                "FlashAttention：Q 与 K、V 的分块在 SRAM 中相遇；S 从不写回 HBM",
                "FlashAttention: tiles of Q and K, V meet in SRAM; S is never written to HBM",
            ),
            12,
        )
    ]
    out.append(rect(30, 76, 70, 200, BLUE, 0.12))
    out.append(text(65, 68, "Q (N×d)", 12))
    for i in range(4):
        out.append(rect(30, 76 + i * 50, 70, 50, BLUE, 0.08 + 0.12 * (i == 1)))
    out.append(rect(150, 46, 200, 30, GREEN, 0.12))
    out.append(text(250, 40, say("Kᵀ (d×N)，V 同样切分", "Kᵀ (d×N), V split the same way"), 11))
    for j in range(4):
        out.append(rect(150 + j * 50, 46, 50, 30, GREEN, 0.08 + 0.12 * (j == 2)))
    for i in range(4):
        for j in range(4):
            hot = i == 1 and j == 2
            out.append(
                rect(150 + j * 50, 76 + i * 50, 50, 50, AMBER if hot else None, 0.4 if hot else 0)
            )
    out.append(
        text(
            250,
            296,
            say(
                "S = QKᵀ 分成 N×N 的块（SRAM 中一次一块）",
                "S = QKᵀ in N×N blocks (one block in SRAM at a time)",
            ),
            11,
        )
    )
    out.append(rect(380, 106, 130, 120, PURPLE, 0.15))
    out.append(text(445, 128, "SRAM", 12, weight="bold"))
    held = say(
        "S 块、运行中的\n最大值 m 与和 ℓ、\n输出块 O",
        "S block, running\nmax m and sum ℓ,\noutput block O",
    )
    for k, row in enumerate(held.split("\n")):
        out.append(text(445, 148 + 16 * k, row, 11))
    out.append(text(445, 206, say("按 e^(m − m') 重新缩放", "rescale by e^(m − m')"), 11))
    out.append(line(300, 176, 378, 166, arrow=True))
    out.append(
        text(
            260,
            320,
            say(
                "外层循环：K、V 块 · 内层循环：Q 块（§4.12）",
                "outer loop: K, V blocks · inner loop: Q blocks (§4.12)",
            ),
            11,
        )
    )
    return out


def _winograd(say: Say) -> list[str]:
    out = [
        text(
            260,
            18,
            say(
                "Winograd F(2,3)：3 抽头滤波器的 2 个输出",
                "Winograd F(2,3): 2 outputs of a 3-tap filter",
            ),
            13,
            weight="bold",
        )
    ]
    out.append(
        text(130, 44, say("直接计算：6 次乘法", "direct: 6 multiplications"), 12, weight="bold")
    )
    for k, row in enumerate(["y0 = d0·g0 + d1·g1 + d2·g2", "y1 = d1·g0 + d2·g1 + d3·g2"]):
        out.append(rect(20, 56 + k * 34, 220, 26, AMBER, 0.18))
        out.append(text(130, 74 + k * 34, row, 12))
    out.append(
        text(390, 44, say("Winograd：4 次乘法", "Winograd: 4 multiplications"), 12, weight="bold")
    )
    terms = [
        "m1 = (d0 − d2)·g0",
        "m2 = (d1 + d2)·(g0 + g1 + g2)/2",
        "m3 = (d2 − d1)·(g0 − g1 + g2)/2",
        "m4 = (d1 − d3)·g2",
    ]
    for k, row in enumerate(terms):
        out.append(rect(270, 56 + k * 30, 240, 24, GREEN, 0.18))
        out.append(text(390, 73 + k * 30, row, 11))
    out.append(text(390, 196, "y0 = m1 + m2 + m3 · y1 = m2 − m3 − m4", 12))
    out.append(
        text(
            260,
            232,
            say(
                "滤波器项预先算好；乘法更少，加法更多",
                "filter terms are precomputed; fewer multiplications, more additions",
            ),
            11,
        )
    )
    out.append(
        text(
            260,
            250,
            say(
                "二维 F(2×2, 3×3)：16 次乘法代替 36 次（2.25×）",
                "2-D F(2×2, 3×3): 16 instead of 36 multiplications (2.25×)",
            ),
            11,
        )
    )
    return out


def _mma(say: Say) -> list[str]:
    out = [
        text(
            250,
            18,
            say("MMA：D = A · B + C（形状 mMnNkK）", "MMA: D = A · B + C   (shape mMnNkK)"),
            13,
            weight="bold",
        )
    ]
    out.append(rect(30, 90, 80, 110, BLUE, 0.2))
    out.append(text(70, 150, "A  M×K", 12, weight="bold"))
    out.append(text(130, 150, "·", 20))
    out.append(rect(150, 40, 110, 80, GREEN, 0.2))
    out.append(text(205, 85, "B  K×N", 12, weight="bold"))
    out.append(text(280, 150, "+", 18))
    out.append(rect(300, 90, 110, 110, AMBER, 0.2))
    out.append(text(355, 150, "C  M×N", 12, weight="bold"))
    out.append(text(430, 150, "=", 18))
    out.append(rect(445, 90, 50, 110, PURPLE, 0.2))
    out.append(text(470, 150, "D", 12, weight="bold"))
    out.append(
        text(
            250,
            232,
            say(
                "每条指令 2·M·N·K FLOP，如 m16n8k16 = 4096 FLOP",
                "2·M·N·K FLOP per instruction, e.g. m16n8k16 = 4096 FLOP",
            ),
            11,
        )
    )
    out.append(
        text(
            250,
            250,
            say(
                "数据通路：SMEM ↔ 寄存器 ↔ Tensor Core（Blackwell：SMEM / TMEM）",
                "data path: SMEM ↔ registers ↔ Tensor Core (Blackwell: SMEM / TMEM)",
            ),
            11,
        )
    )
    return out


def _parallelism(say: Say) -> list[str]:
    out = []
    cols = [
        (
            say("数据并行", "data parallel"),
            say("切分 batch", "split the batch"),
            say("梯度 AllReduce", "AllReduce of gradients"),
            BLUE,
        ),
        (
            say("张量并行", "tensor parallel"),
            say("切分每个 GEMM", "split each GEMM"),
            say("每层 AllReduce", "AllReduce per layer"),
            GREEN,
        ),
        (
            say("流水线并行", "pipeline parallel"),
            say("切分层", "split the layers"),
            say("P2P 传激活", "P2P activations"),
            AMBER,
        ),
    ]
    for k, (name, what, comm, color) in enumerate(cols):
        x = 20 + k * 170
        out.append(text(x + 75, 22, name, 13, weight="bold"))
        for g in range(2):
            gx = x + g * 78
            out.append(rect(gx, 36, 70, 130, None))
            out.append(text(gx + 35, 182, f"GPU {g}", 11))
            if k == 0:  # every GPU holds the whole model
                for layer in range(4):
                    out.append(rect(gx + 8, 46 + layer * 29, 54, 22, color, 0.3))
            elif k == 1:  # every GPU holds its half of each layer
                for layer in range(4):
                    out.append(rect(gx + 8 + 28 * g, 46 + layer * 29, 26, 22, color, 0.3))
            else:
                for layer in range(2):
                    out.append(rect(gx + 8, 46 + (layer + 2 * g) * 29, 54, 22, color, 0.3))
        out.append(text(x + 75, 204, what, 11))
        out.append(text(x + 75, 222, comm, 11))
    out.append(
        text(
            260,
            248,
            say("每行一层；GPU 总数 = DP × TP × PP", "rows = layers; total GPUs = DP × TP × PP"),
            11,
        )
    )
    return out


def _pipeline_bubble(say: Say) -> list[str]:
    k, m = 4, 4
    out = [
        text(
            270,
            18,
            say(
                "GPipe，K = 4 个 stage，M = 4 个 micro-batch：前向 F，反向 B",
                "GPipe, K = 4 stages, M = 4 micro-batches: forward F, backward B",
            ),
            12,
        )
    ]
    cw, ch = 26, 26
    for s in range(k):
        y = 34 + s * (ch + 6)
        out.append(text(40, y + 17, f"GPU {s}", 11, "end"))
        for t in range(2 * (m + k - 1)):
            out.append(rect(48 + t * cw, y, cw, ch, None, rx=0))
        for i in range(m):
            f = s + i
            b = (m + k - 1) + (k - 1 - s) + i
            out.append(rect(48 + f * cw, y, cw, ch, BLUE, 0.35, rx=0))
            out.append(text(48 + f * cw + 13, y + 17, f"F{i}", 10))
            out.append(rect(48 + b * cw, y, cw, ch, GREEN, 0.35, rx=0))
            out.append(text(48 + b * cw + 13, y + 17, f"B{i}", 10))
    out.append(
        text(
            270,
            182,
            say(
                "空格即气泡：占时间的 (K − 1)/(M + K − 1) = 3/7",
                "empty cells = bubble: (K − 1)/(M + K − 1) = 3/7 of the time",
            ),
            12,
        )
    )
    out.append(
        text(
            270,
            200,
            say(
                "1F1B 气泡不变，但最多只存 K 个 micro-batch 的激活",
                "1F1B keeps the same bubble but holds ≤ K micro-batches' activations",
            ),
            11,
        )
    )
    return out


def _zero_stages(say: Say) -> list[str]:
    out = [
        text(
            260,
            18,
            say(
                "每卡模型状态（N_d = 4）：参数、梯度、优化器状态",
                "Model state per GPU (N_d = 4): parameters, gradients, optimizer state",
            ),
            12,
        )
    ]
    stages = [
        ("DDP", (1, 1, 1)),
        ("ZeRO-1", (1, 1, 0.25)),
        ("ZeRO-2", (1, 0.25, 0.25)),
        ("ZeRO-3", (0.25, 0.25, 0.25)),
    ]
    sizes = (2, 2, 12)  # bytes per parameter: FP16 params, FP16 grads, FP32 Adam state
    colors = (BLUE, GREEN, AMBER)
    scale = 22
    for r, (name, share) in enumerate(stages):
        y = 36 + r * 44
        out.append(text(70, y + 20, name, 12, "end", "bold"))
        x = 80
        for frac, size, color in zip(share, sizes, colors, strict=True):
            w = size * frac * scale
            out.append(rect(x, y, w, 28, color, 0.35, rx=0))
            x += w
        total = sum(f * s for f, s in zip(share, sizes, strict=True))
        out.append(text(x + 8, y + 19, f"{_n(total)}Ψ B", 11, "start"))
    legend = [
        (say("参数 2Ψ", "params 2Ψ"), BLUE),
        (say("梯度 2Ψ", "grads 2Ψ"), GREEN),
        (say("Adam 状态 12Ψ", "Adam state 12Ψ"), AMBER),
    ]
    for i, (label, color) in enumerate(legend):
        out.append(rect(90 + i * 140, 218, 14, 14, color, 0.35, rx=0))
        out.append(text(110 + i * 140, 230, label, 11, "start"))
    return out


def _ring_allreduce(say: Say) -> list[str]:
    out = [
        text(
            250,
            18,
            say(
                "4 卡环形 AllReduce = ReduceScatter + AllGather",
                "Ring AllReduce on 4 GPUs = ReduceScatter + AllGather",
            ),
            13,
            weight="bold",
        )
    ]
    centers = [(250, 70), (370, 150), (250, 230), (130, 150)]
    for i, (cx, cy) in enumerate(centers):
        out.append(circle(cx, cy, 30, BLUE, 0.2))
        out.append(text(cx, cy + 5, f"GPU {i}", 12, weight="bold"))
    for i in range(4):
        (x1, y1), (x2, y2) = centers[i], centers[(i + 1) % 4]
        dx, dy = x2 - x1, y2 - y1
        length = (dx * dx + dy * dy) ** 0.5
        ux, uy = dx / length, dy / length
        out.append(
            line(x1 + 34 * ux, y1 + 34 * uy, x2 - 36 * ux, y2 - 36 * uy, arrow=True, width=1.6)
        )
    out.append(text(250, 150, say("数据切成 4 块", "data in 4 chunks"), 11))
    out.append(text(250, 166, say("每步发送一块", "each step: send one chunk"), 11))
    out.append(
        text(
            250,
            284,
            say(
                "共 2(p − 1) 步，每步 n/p：每卡发送 2(p−1)/p · n < 2n",
                "2(p − 1) steps of n/p each: 2(p−1)/p · n < 2n sent per GPU",
            ),
            11,
        )
    )
    return out


def _tree_vs_ring(say: Say) -> list[str]:
    out = [
        text(
            260,
            18,
            say(
                "α-β 模型，p = 64：AllReduce 时间与消息大小 n",
                "α-β model, p = 64: AllReduce time vs message size n",
            ),
            12,
        )
    ]
    x0, y0, w, h = 70, 240, 400, 200
    out.append(line(x0, y0, x0 + w, y0, arrow=True))
    out.append(line(x0, y0, x0, y0 - h, arrow=True))
    out.append(text(x0 + w, y0 + 24, say("消息大小 n（对数）", "message size n (log)"), 11, "end"))
    out.append(text(x0 + 8, y0 - h + 8, say("时间（对数）", "time (log)"), 11, "start"))
    # Schematic: halving-doubling pays log2(p) latencies, the ring p - 1; same bandwidth term.
    hd = [(x0, y0 - 40), (x0 + 180, y0 - 60), (x0 + w - 10, y0 - 190)]
    ring = [(x0, y0 - 110), (x0 + 180, y0 - 118), (x0 + w - 10, y0 - 192)]
    out.append(polyline(ring, 2.2, BLUE))
    out.append(polyline(hd, 2.2, GREEN, dash=True))
    out.append(
        text(x0 + 10, y0 - 126, say("环：", "ring: ") + "2(p−1)α + 2(p−1)/p·nβ", 11, "start")
    )
    out.append(
        text(
            x0 + 120,
            y0 - 30,
            say("树 / 减半-倍增：", "tree / halving-doubling: ") + "2·log₂p·α + …",
            11,
            "start",
        )
    )
    out.append(
        text(
            x0 + 250,
            y0 - 84,
            say("大 n：β 项主导，", "large n: the β term dominates,"),
            11,
            "start",
        )
    )
    out.append(
        text(x0 + 250, y0 - 68, say("环的带宽最优", "ring is bandwidth-optimal"), 11, "start")
    )
    out.append(text(x0 + 30, y0 - 70, say("小 n：α 项主导", "small n: α dominates"), 11, "start"))
    return out


FIGURES: list[Figure] = [
    Figure(
        "memory-hierarchy",
        "4.10",
        title=(
            "GPU 存储层次",
            "GPU memory hierarchy",
        ),
        desc=(
            "三层条形：片上 SRAM 约 19 TB/s、共约 20 MB，HBM 约 1.5 TB/s、40 GB，"
            "CPU DRAM 约 12.8 GB/s、超过 1 TB；每往下一层更慢、更大。",
            "Three stacked bars: on-chip SRAM about 19 TB/s and 20 MB, HBM about 1.5 TB/s and 40 "
            "GB, CPU DRAM about 12.8 GB/s and over 1 TB; each level down is slower and larger.",
        ),
        caption=(
            "越靠近计算单元，带宽越高、容量越小（A100 数据）。",
            "The closer to the compute units, the higher the bandwidth and the smaller the "
            "capacity (A100 figures).",
        ),
        width=520,
        height=252,
        draw=_memory_hierarchy,
    ),
    Figure(
        "simt-divergence",
        "2.23",
        title=(
            "warp 分歧与谓词执行",
            "Warp divergence under predication",
        ),
        desc=(
            "一个 warp 的 8 个 lane：偶数 lane 执行 if 分支（时间 t1），奇数 lane 被屏蔽；"
            "随后奇数 lane 执行 else 分支（时间 t2）；整个 warp 耗时 t1 + t2。",
            "Eight lanes of a warp: even lanes run the if branch for time t1 while odd lanes are "
            "masked, then odd lanes run the else branch for time t2; the warp takes t1 + t2.",
        ),
        caption=(
            "同一 warp 内分歧时两条路径串行执行，耗时 t1 + t2。",
            "When a warp diverges, both paths run one after the other: t1 + t2.",
        ),
        width=420,
        height=236,
        draw=_simt_divergence,
    ),
    Figure(
        "coalescing",
        "2.26",
        title=(
            "合并访存",
            "Coalesced memory access",
        ),
        desc=(
            "从地址 0x1232 开始的 16 次 4 字节读取落在 0x1220、0x1240、0x1260 三个 32 字节段里，"
            "总线因此做 3 次事务。",
            "Sixteen 4-byte reads starting at address 0x1232 fall into three 32-byte segments "
            "0x1220, 0x1240 and 0x1260, so the bus does three transactions.",
        ),
        caption=(
            "16 个线程的访问落在 3 个 32 B 段里，合并为 3 次总线访问。",
            "The 16 threads' accesses fall into three 32 B segments and coalesce into 3 "
            "transactions.",
        ),
        width=540,
        height=172,
        draw=_coalescing,
    ),
    Figure(
        "shared-memory-banks",
        "3.4",
        title=(
            "共享内存 bank 冲突",
            "Shared-memory bank conflicts",
        ),
        desc=(
            "16 个 bank 画了两遍：交错寻址 s = 16 时 16 个线程都访问 bank 0（16 路冲突）；"
            "连续寻址时每个线程访问自己的 bank。",
            "Sixteen banks shown twice: with interleaved addressing at s = 16 all sixteen threads "
            "hit bank 0 (a 16-way conflict); with sequential addressing each thread hits its own "
            "bank.",
        ),
        caption=(
            "交错寻址 s = 16 时 16 个线程都落在 bank 0；连续寻址时各占一个 bank。",
            "Interleaved addressing at s = 16 puts all 16 threads on bank 0; sequential "
            "addressing gives each thread its own bank.",
        ),
        width=500,
        height=236,
        draw=_shared_banks,
    ),
    Figure(
        "reduction-tree",
        "3.2",
        title=(
            "树形归约",
            "Tree reduction",
        ),
        desc=(
            "8 个数分 3 轮求和：每轮线程 tid 加上右侧相距 s 的值，s = 4、2、1，"
            "最后总和 25 留在第一个位置。",
            "Eight values are summed in three rounds; in each round thread tid adds the value s "
            "places to its right, with s = 4, 2, 1, leaving the total 25 in the first slot.",
        ),
        caption=(
            "8 个数经 log₂8 = 3 轮两两相加得到总和；每轮之后都要 __syncthreads()。",
            "Eight values reduce in log₂8 = 3 rounds of pairwise sums, with a __syncthreads() "
            "after each round.",
        ),
        width=520,
        height=330,
        draw=_reduction_tree,
    ),
    Figure(
        "conv-tiling",
        "3.6",
        title=(
            "分块卷积的输入 tile 与 halo",
            "Input tile and halo of tiled convolution",
        ),
        desc=(
            "12×12 的输入 tile：中间 8×8 是输出 tile，宽为 2 的外圈是从相邻 tile 借来的 halo；"
            "数组之外的 ghost 元素按 0 载入。",
            "A 12 by 12 input tile: the inner 8 by 8 cells are the output tile and the outer ring "
            "of width 2 is the halo borrowed from neighbouring tiles; cells outside the array are "
            "ghost cells loaded as zero.",
        ),
        caption=(
            "输入 tile = 输出 tile + 2 × 滤波器半径；外圈 halo 来自相邻 tile，"
            "数组外的 ghost 元素填 0。",
            "Input tile = output tile + 2 × filter radius; the outer halo comes from neighbouring "
            "tiles and ghost cells outside the array are 0.",
        ),
        width=500,
        height=352,
        draw=_tiling,
    ),
    Figure(
        "roofline",
        "5.3",
        title=(
            "Roofline 模型",
            "The roofline model",
        ),
        desc=(
            "可达性能随算术强度变化：斜的屋顶是 I 乘带宽，到拐点 π/β 为止，"
            "之后是峰值算力的水平屋顶；逐元素运算落在斜坡上，大 GEMM 落在水平部分。",
            "Attainable performance against arithmetic intensity: a sloped roof I times bandwidth "
            "up to the ridge point pi over beta, then a flat roof at peak compute; element-wise "
            "ops sit on the slope, large GEMMs on the flat part.",
        ),
        caption=(
            "拐点 I* = π/β 左侧受带宽限制，右侧受峰值算力限制。",
            "Left of the ridge point I* = π/β bandwidth limits performance, right of it peak "
            "compute.",
        ),
        width=500,
        height=292,
        draw=_roofline,
    ),
    Figure(
        "flash-attention-tiling",
        "4.12",
        title=(
            "FlashAttention 分块",
            "FlashAttention tiling",
        ),
        desc=(
            "Q 按行分块，K、V 按列分块；每一对块在 SRAM 中算出得分矩阵 S 的一块，"
            "连同运行中的最大值、和与输出块，新块到来时重新缩放；S 从不写到 HBM。",
            "Q is cut into row blocks and K, V into column blocks; each pair of blocks produces "
            "one block of the score matrix S in SRAM together with the running max, running sum "
            "and output block, which are rescaled as new blocks arrive; S never goes to HBM.",
        ),
        caption=(
            "Q 与 K、V 分块在 SRAM 中相遇，S 块即算即用；online softmax 用 e^(m − m') 校正。",
            "Tiles of Q and K, V meet in SRAM and each S block is used at once; online softmax "
            "rescales by e^(m − m').",
        ),
        width=530,
        height=332,
        draw=_flash_tiling,
    ),
    Figure(
        "winograd",
        "5.6.1",
        title=(
            "Winograd 快速卷积 F(2,3)",
            "Winograd F(2,3)",
        ),
        desc=(
            "直接计算 3 抽头滤波器的两个输出需要 6 次乘法；Winograd 算出 m1 到 m4 四个乘积，"
            "再用加法组合。",
            "Direct computation of two outputs of a 3-tap filter takes six multiplications; "
            "Winograd forms four products m1 to m4 and combines them with additions.",
        ),
        caption=(
            "F(2,3) 用 4 次乘法代替 6 次，代价是更多的加法与变换。",
            "F(2,3) replaces 6 multiplications by 4, at the price of more additions and "
            "transforms.",
        ),
        width=530,
        height=262,
        draw=_winograd,
    ),
    Figure(
        "tensor-core-mma",
        "7.4",
        title=(
            "Tensor Core MMA 的形状",
            "Shapes of a Tensor Core MMA",
        ),
        desc=(
            "M×K 的矩阵 A 乘 K×N 的矩阵 B，加上 M×N 的 C，得到 M×N 的 D。",
            "Matrix A of M by K times matrix B of K by N plus C of M by N gives D of M by N.",
        ),
        caption=(
            "D = A·B + C：A 为 M×K，B 为 K×N，C、D 为 M×N。",
            "D = A·B + C with A of M×K, B of K×N, and C, D of M×N.",
        ),
        width=500,
        height=262,
        draw=_mma,
    ),
    Figure(
        "parallelism-axes",
        "9.4.1",
        title=(
            "数据、张量与流水线并行",
            "Data, tensor and pipeline parallelism",
        ),
        desc=(
            "三组面板，每组两块 GPU：数据并行时两块 GPU 都放全部四层，"
            "张量并行时每块 GPU 放每层的一半，流水线并行时每块 GPU 放两层。",
            "Three panels of two GPUs each: data parallel keeps all four layers on both GPUs, "
            "tensor parallel keeps half of every layer on each GPU, pipeline parallel keeps two "
            "layers on each GPU.",
        ),
        caption=(
            "DP 切 batch（复制整个模型），TP 切每个 GEMM，PP 切层；三轴正交，总 GPU 数相乘。",
            "DP splits the batch (each GPU holds the whole model), TP splits each GEMM, PP splits "
            "the layers; the axes are orthogonal and the GPU counts multiply.",
        ),
        width=520,
        height=258,
        draw=_parallelism,
    ),
    Figure(
        "pipeline-bubble",
        "9.3.2",
        title=(
            "流水线气泡",
            "The pipeline bubble",
        ),
        desc=(
            "4 块 GPU、4 个 micro-batch 的时间线：前向逐级向下，反向逐级向上，"
            "开头和中间的空格就是气泡，占时间的 3/7。",
            "A timeline of four GPUs and four micro-batches: forward passes step down the stages, "
            "backward passes step back up, and the empty cells at the start and in the middle are "
            "the bubble, 3/7 of the time.",
        ),
        caption=(
            "K = 4、M = 4 时 GPipe 的气泡占总时间 (K − 1)/(M + K − 1) = 3/7。",
            "With K = 4 and M = 4, GPipe's bubble is (K − 1)/(M + K − 1) = 3/7 of the time.",
        ),
        width=540,
        height=212,
        draw=_pipeline_bubble,
    ),
    Figure(
        "zero-stages",
        "9.1.4",
        title=(
            "ZeRO 各阶段的每卡显存",
            "Per-GPU memory under the ZeRO stages",
        ),
        desc=(
            "4 块 GPU 时每卡的参数（2Ψ）、梯度（2Ψ）和 Adam 状态（12Ψ）堆叠条形：DDP 16Ψ，"
            "ZeRO-1 7Ψ，ZeRO-2 5.5Ψ，ZeRO-3 4Ψ 字节。",
            "Stacked bars of parameters (2 Psi), gradients (2 Psi) and Adam state (12 Psi) per "
            "GPU with 4 GPUs: DDP 16 Psi, ZeRO-1 7 Psi, ZeRO-2 5.5 Psi, ZeRO-3 4 Psi bytes.",
        ),
        caption=(
            "N_d = 4：DDP 16Ψ，ZeRO-1 7Ψ，ZeRO-2 5.5Ψ，ZeRO-3 4Ψ 字节（不含激活）。",
            "With N_d = 4: DDP 16Ψ, ZeRO-1 7Ψ, ZeRO-2 5.5Ψ, ZeRO-3 4Ψ bytes (activations "
            "excluded).",
        ),
        width=520,
        height=244,
        draw=_zero_stages,
    ),
    Figure(
        "ring-allreduce",
        "10.3.2",
        title=(
            "环形 AllReduce",
            "Ring AllReduce",
        ),
        desc=(
            "4 块 GPU 连成环，每块发给下一块；数据切成 4 块，每一步每条链路传一块，共 2(p − 1) 步。",
            "Four GPUs in a ring, each sending to the next; the data is cut into four chunks and "
            "every step moves one chunk per link, 2(p − 1) steps in all.",
        ),
        caption=(
            "数据切成 p 块，ReduceScatter 与 AllGather 各走 p − 1 步；每卡发送 2(p − 1)/p · n。",
            "The data is cut into p chunks; ReduceScatter and AllGather take p − 1 steps each; "
            "every GPU sends 2(p − 1)/p · n.",
        ),
        width=500,
        height=296,
        draw=_ring_allreduce,
    ),
    Figure(
        "tree-vs-ring",
        "10.3.1",
        title=(
            "α-β 模型下树与环的比较",
            "Tree versus ring in the α-β model",
        ),
        desc=(
            "双对数坐标下时间随消息大小变化：树或减半-倍增曲线起点低，因为其延迟项随 log p 增长；"
            "环的曲线起点高，因为其延迟随 p 增长；带宽项主导时两者汇合。",
            "Time against message size on log scales: the tree or halving-doubling curve starts "
            "low because its latency term grows with log p, the ring curve starts higher because "
            "its latency grows with p, and both meet where the bandwidth term dominates.",
        ),
        caption=(
            "小消息时 α 项主导，对数轮数的树 / 减半-倍增更快；大消息时 β 项主导，环带宽最优（示意）"
            "。",
            "For small messages α dominates and the logarithmic tree / halving-doubling wins; for "
            "large ones β dominates and the ring is bandwidth-optimal (schematic).",
        ),
        width=520,
        height=270,
        draw=_tree_vs_ring,
    ),
]
BY_SLUG = {f.slug: f for f in FIGURES}
BY_SECTION: dict[str, list[Figure]] = {}
for _figure in FIGURES:
    BY_SECTION.setdefault(_figure.section, []).append(_figure)


def figure_path(slug: str, lang: str = "zh") -> Path:
    """``<slug>.svg`` in Chinese (the site's language), ``<slug>.en.svg`` in English."""
    return FIGURE_DIR / (f"{slug}.svg" if lang == "zh" else f"{slug}.{lang}.svg")


# Stored lecture HTML holds this slot, not the figure: the words in a figure follow the reader's
# language, and the stored HTML is one copy for both (fragments caches a body per language).
SLOT_RE = re.compile(r"<!--pdc-figure:(?P<slug>[a-z0-9-]+)-->")


def figure_slot(slug: str) -> str:
    return f"<!--pdc-figure:{slug}-->"


def in_language(stored_html: str, lang: str) -> str:
    """``stored_html`` with every figure slot filled by that figure in ``lang``; a slot whose
    figure no longer exists (renamed since the import) shows nothing rather than failing the page."""
    return SLOT_RE.sub(
        lambda m: figure_html(m["slug"], lang) if m["slug"] in BY_SLUG else "", stored_html
    )


@functools.cache
def _svg_text(slug: str, lang: str) -> str:
    return figure_path(slug, lang).read_text(encoding="utf-8").strip()


FIGURE_TAG = {"zh": "编者补充（示意图）", "en": "Editor's figure"}


def figure_html(slug: str, lang: str = "zh") -> str:
    """The <figure> a lecture page shows, all in ``lang``: the committed SVG inline (so
    currentColor follows the page's colours) and its caption, marked as the editor's addition."""
    figure, pick = BY_SLUG[slug], LANGS.index(lang)
    caption = (
        f'<figcaption><span class="figure-tag">{html.escape(FIGURE_TAG[lang])}</span>'
        f"{html.escape(figure.caption[pick])}</figcaption>"
    )
    # The lecture text around it is the notes' Chinese even on English pages: say which this is.
    lang_attr = "zh-CN" if lang == "zh" else "en"
    return (
        f'<figure class="lecture-figure" id="fig-{slug}" lang="{lang_attr}">'
        f"{_svg_text(slug, lang)}{caption}</figure>"
    )


def write_all(directory: Path = FIGURE_DIR) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for figure in FIGURES:
        for lang in LANGS:
            path = directory / figure_path(figure.slug, lang).name
            path.write_text(svg(figure, lang), encoding="utf-8")
            written.append(path)
    return written


if __name__ == "__main__":
    target = Path(sys.argv[1]) if len(sys.argv) > 1 else FIGURE_DIR
    for written_path in write_all(target):
        print(written_path)
