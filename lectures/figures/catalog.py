"""Every figure: its slug, the section it explains, its title, description and caption in both
languages, its size and its drawing."""

from __future__ import annotations

from lectures.figures import drawings
from lectures.figures.draw import Figure

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
        draw=drawings.memory_hierarchy,
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
        draw=drawings.simt_divergence,
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
        draw=drawings.coalescing,
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
        draw=drawings.shared_banks,
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
        draw=drawings.reduction_tree,
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
        draw=drawings.tiling,
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
        draw=drawings.roofline,
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
        draw=drawings.flash_tiling,
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
        draw=drawings.winograd,
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
        draw=drawings.mma,
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
        draw=drawings.parallelism,
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
        draw=drawings.pipeline_bubble,
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
        draw=drawings.zero_stages,
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
        draw=drawings.ring_allreduce,
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
        draw=drawings.tree_vs_ring,
    ),
]
BY_SLUG = {f.slug: f for f in FIGURES}
BY_SECTION: dict[str, list[Figure]] = {}
for _figure in FIGURES:
    BY_SECTION.setdefault(_figure.section, []).append(_figure)
