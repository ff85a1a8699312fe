"""The drawings, one function a figure, in the order of the course: one GPU's lectures (memory,
SIMT, coalescing, banks, reduction, tiling, roofline, FlashAttention, Winograd, Tensor Core MMA),
then the distributed ones (parallelism, pipeline bubbles, ZeRO, ring all-reduce, tree against
ring). Each returns its SVG elements, every label as ``say(chinese, english)``."""

from __future__ import annotations

from lectures.figures.draw import (
    AMBER,
    BLUE,
    GREEN,
    PURPLE,
    RED,
    Say,
    circle,
    line,
    num,
    polyline,
    rect,
    text,
)


def memory_hierarchy(say: Say) -> list[str]:
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


def simt_divergence(say: Say) -> list[str]:
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


def coalescing(say: Say) -> list[str]:
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


def shared_banks(say: Say) -> list[str]:
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


def reduction_tree(say: Say) -> list[str]:
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


def tiling(say: Say) -> list[str]:
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


def roofline(say: Say) -> list[str]:
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


def flash_tiling(say: Say) -> list[str]:
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


def winograd(say: Say) -> list[str]:
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


def mma(say: Say) -> list[str]:
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


def parallelism(say: Say) -> list[str]:
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


def pipeline_bubble(say: Say) -> list[str]:
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


def zero_stages(say: Say) -> list[str]:
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
        out.append(text(x + 8, y + 19, f"{num(total)}Ψ B", 11, "start"))
    legend = [
        (say("参数 2Ψ", "params 2Ψ"), BLUE),
        (say("梯度 2Ψ", "grads 2Ψ"), GREEN),
        (say("Adam 状态 12Ψ", "Adam state 12Ψ"), AMBER),
    ]
    for i, (label, color) in enumerate(legend):
        out.append(rect(90 + i * 140, 218, 14, 14, color, 0.35, rx=0))
        out.append(text(110 + i * 140, 230, label, 11, "start"))
    return out


def ring_allreduce(say: Say) -> list[str]:
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


def tree_vs_ring(say: Say) -> list[str]:
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
