"""Editor's supplements (编者补充) inserted by ``convert_notes`` where the notes lost content.

Each key is the full text of a line of the notes; the value is Markdown appended right after that
line, always inside a ``!!! note "编者补充"`` block so a reader can tell it from the notes. Only
standard textbook facts go here (with their source); nothing course-specific is invented.
"""

from __future__ import annotations

SUPPLEMENTS: dict[str, str] = {
    "课件用两条定律给出「不能」与「能」两个方向的回答。记号（Notations）统一为：$s$ 为加速比（speedup），$p$ 为可并行比例（parallel fraction），$n$ 为处理器数（number of processors）。": """
- Amdahl 定律（问题规模固定）：$$s = \\frac{1}{(1-p) + p/n}$$ 当 $n \\to \\infty$ 时 $s \\to \\frac{1}{1-p}$，例如 $p = 0.95$ 时加速比上限为 $20$。
- Gustafson 定律（问题规模随 $n$ 扩展，$p$ 为并行机上的并行时间占比）：$$s = (1-p) + p\\,n$$ 加速比随 $n$ 线性增长。

来源：G. Amdahl, AFIPS 1967；J. Gustafson, "Reevaluating Amdahl's Law", CACM 1988。
""",
    "设 if 分支耗时 $t_1$、else 分支耗时 $t_2$。谓词执行会先执行 if 分支（$t_1$），随后丢弃无效结果、反转掩码，再执行 else 分支（$t_2$）。因此总时间为：": """
$$T = t_1 + t_2$$

（无分歧时，warp 只执行其中一条路径，耗时为 $t_1$ 或 $t_2$。）
""",
    "归约（reduction）指用一个可结合的二元运算（这里以加法为例）把 $N$ 个输入元素汇聚为单个结果。课件对比了两条基本思路：": """
| 思路 | 做法 | 步数 | 问题 |
|---|---|---|---|
| 原子累加 | 每个线程对同一全局地址执行 atomicAdd | $N$ 次更新被串行化 | 对同一地址的原子操作互相等待 |
| 树形归约 | 每轮两两相加，参与线程数减半 | $\\lceil \\log_2 N \\rceil$ 轮 | 需要轮间同步（block 内 __syncthreads()） |
""",
    "课件用一个 $M \\times M$ 的滤波器量化 tiling 的收益。定义算术访存比为「每字节全局访问所支撑的运算量（OP/B）」。": """
以下按 Kirk & Hwu《Programming Massively Parallel Processors》的算法计数：FP32 元素（$4$ B），一次乘加计 $2$ 个运算，滤波器在常量内存中（不计全局访问）。

- 无分块：每次乘加从全局内存读 $1$ 个输入元素，$\\dfrac{2\\ \\text{OP}}{4\\ \\text{B}} = 0.5$ OP/B。
- 有分块（输入 tile $T \\times T$，输出 tile $(T-M+1) \\times (T-M+1)$）：$$\\frac{(T-M+1)^2 \\cdot M^2 \\cdot 2}{T^2 \\cdot 4}\\ \\text{OP/B}$$ 例如 $T = 32,\\ M = 5$ 时约为 $9.57$ OP/B，上限（$T \\gg M$）为 $M^2/2 = 12.5$ OP/B。
""",
    "自注意力可以理解为一次信息检索（Information Retrieval）。每个 token 被变换成三个向量，构成三元组（The Triplets）：": """
- Query（查询 $q = xW^Q$）：当前 token「要找什么」。
- Key（键 $k = xW^K$）：每个 token「可被怎样匹配」。
- Value（值 $v = xW^V$）：匹配上后被取走的内容。

来源：Vaswani et al., "Attention Is All You Need", NeurIPS 2017。
""",
    "整个计算可归纳为：先由输入分别算出 Query、Key、Value 矩阵，再做打分与加权（Score and Weight）。用矩阵形式写出标准注意力：": """
$$\\text{Attention}(Q,K,V) = \\text{softmax}\\left(\\frac{QK^\\top}{\\sqrt{d_k}}\\right)V$$

（与 4.14 小结中的公式相同。）
""",
    "• 再乘以 $(n,d)$ 的 Value $V$。": """
由此：计算量 $O(n^2 d)$，得分矩阵显存 $O(n^2)$（每个头一份 $n \\times n$）。
""",
    "理解内存墙必须理解 GPU 存储层次的速度落差（约 10 倍）。以 A100 为例：": """
| 层次 | 带宽 | 容量 |
|---|---|---|
| GPU SRAM（L1/Shared） | 约 $19$ TB/s | 约 $20$ MB（全部 SM 合计） |
| GPU HBM | 约 $1.5$ TB/s | $40$ GB |
| CPU DRAM | 约 $12.8$ GB/s | $> 1$ TB |

来源：Dao et al., "FlashAttention", NeurIPS 2022，图 1（A100 40GB）。
""",
    "FlashAttention 的设计哲学是「优化数据搬运，而不仅仅优化计算」（Optimize Data Movement, Not Just Computation）——更少搬运，更快速度（Less Movement, More Speed）。它依赖两大技术支柱：": """
1. 分块（Tiling）：把 $Q,K,V$ 切成能放进 SRAM 的块，在片上完成 Softmax 与输出累加（见 4.11.1）。
2. 重计算（Recomputation）：反向时不从 HBM 读回 $N \\times N$ 的注意力矩阵，而是用保存的 Softmax 统计量（$m$、$\\ell$）在片上重算。

HBM 访存量（$N$ 为序列长度、$d$ 为头维度、$M$ 为 SRAM 大小）：标准注意力 $\\Theta(Nd + N^2)$，FlashAttention $\\Theta(N^2 d^2 / M)$；当 $d^2 < M$ 时远小于前者。来源：Dao et al., NeurIPS 2022，定理 2。
""",
    "• 解法：对向量中每个元素先减去最大值 $m=\\max(x_i)$，再做指数化。": """
$$\\text{softmax}(x)_i = \\frac{e^{x_i - m}}{\\sum_j e^{x_j - m}},\\quad m = \\max_j x_j$$
""",
    "课件以常规卷积算子（conventional convolution operator）为例指出：朴素 7 层循环在数学上完全正确，但在结构上是灾难性的（Mathematically correct. Structurally disastrous.）——它无法利用现代硬件的数据复用与访存局部性，算力利用率极低。其浮点运算量为：": """
$$\\text{FLOPs} = 2 \\cdot B \\cdot C_{out} \\cdot H_{out} \\cdot W_{out} \\cdot C_{in} \\cdot K_h \\cdot K_w$$

（$B$ 为 batch，一次乘加计 $2$ 次浮点运算，不计偏置。）
""",
    "• 内存墙（Memory Wall）：内存带宽的增速远远落后于算力的增速，导致 GPU 计算核心常常在空闲等待慢速内存供数。": """
Roofline 模型：算术强度 $I = \\dfrac{\\text{FLOPs}}{\\text{访存字节数}}$（FLOP/B），可达性能 $$P = \\min(\\pi,\\ I \\cdot \\beta)$$ 其中 $\\pi$ 为峰值算力、$\\beta$ 为内存带宽；拐点（ridge point）$I^* = \\pi / \\beta$，$I < I^*$ 为 memory-bound，$I > I^*$ 为 compute-bound。来源：Williams, Waterman & Patterson, "Roofline", CACM 2009。
""",
    "5.6.2 矩阵形式与二维推广": """
一维：$Y = A^\\top\\big[(G g) \\odot (B^\\top d)\\big]$；二维：$$Y = A^\\top\\big[(G g G^\\top) \\odot (B^\\top d B)\\big]A$$ 其中 $g$ 为滤波器、$d$ 为输入 tile，$G, B, A$ 为变换矩阵。$F(m \\times m, r \\times r)$ 每个输出 tile 需 $(m+r-1)^2$ 次乘法，直接卷积需 $m^2 r^2$ 次：$F(2\\times2, 3\\times3)$ 为 $16$ 对 $36$（$2.25\\times$）；按同一计数 $F(4\\times4, 3\\times3)$ 为 $36$ 对 $144$（$4\\times$）。来源：Lavin & Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016。
""",
    "训练显存来自两方面：其一是存储模型权重（通常 FP16），其二是存储优化器状态（Adam 的动量 momentum 与方差 variance，为精度通常存 FP32）。": """
混合精度 Adam 训练，参数量 $\\Psi$：FP16 参数 $2\\Psi$ + FP16 梯度 $2\\Psi$ + FP32 优化器状态（参数副本、动量、方差）$12\\Psi$，共 $16\\Psi$ 字节（不含激活）。来源：Rajbhandari et al., "ZeRO", SC 2020。
""",
    "$K$ 为每参数优化器状态占用的字节数（FP32 动量典型为 $12$）。式中 $4$ 对应 FP16 参数（$2$）+ FP16 梯度（$2$）。": """
每卡显存（$\\Psi$ 为参数量，$N_d$ 为数据并行度，$K = 12$）：

| 方案 | 每卡显存（字节） |
|---|---|
| DDP（基线） | $(2 + 2 + K)\\Psi$ |
| ZeRO-1（$P_{os}$） | $4\\Psi + K\\Psi / N_d$ |
| ZeRO-2（$P_{os+g}$） | $2\\Psi + (2 + K)\\Psi / N_d$ |
| ZeRO-3（$P_{os+g+p}$） | $(2 + 2 + K)\\Psi / N_d$ |

来源：Rajbhandari et al., "ZeRO", SC 2020，图 1。
""",
    "气泡率公式 编者补充": """
$K$ 个 stage、$M$ 个 micro-batch，GPipe（F-then-B）与 1F1B 的气泡占比相同：$$\\text{bubble} = \\frac{K-1}{M+K-1}$$ （相对理想时间为 $\\frac{K-1}{M}$）。Interleaved 1F1B 把每卡分成 $v$ 个虚拟 stage，气泡降为 $\\frac{K-1}{vM}$（相对理想时间）。来源：Huang et al., "GPipe", NeurIPS 2019；Narayanan et al., "Megatron-LM", SC 2021。
""",
    "建模假设（本讲分析专用）：所有节点通过通信网络连通；节点每次只做单端口（single port）通信（同一时刻至多参与一次通信操作——可以是单向 send/recv、双向电话式（telephone-like）收发、或同时向两个不同节点收发的全双向 sendreceive）；通信介质同构且全互连（homogeneous and fully connected）。": """
发送一条 $n$ 字节消息的时间 $$T(n) = \\alpha + n\\beta$$ $\\alpha$ 为启动延迟（latency，秒），$\\beta$ 为每字节传输时间（秒/字节，即带宽的倒数）；归约运算每字节耗时记为 $\\gamma$。来源：Chan et al., "Collective communication: theory, practice, and experience", 2007。
""",
    "课件（10c）在 α-β 模型下给出若干原语的经典复杂度公式（源：Grama et al., Introduction to Parallel Computing）：": """
$p$ 个节点、消息 $n$ 字节（下界与常用算法，来源：Chan et al. 2007；Thakur et al. 2005）：

| 原语 | 算法 | 代价 |
|---|---|---|
| Broadcast | MST（二项树） | $\\lceil \\log_2 p \\rceil(\\alpha + n\\beta)$ |
| Reduce | MST | $\\lceil \\log_2 p \\rceil(\\alpha + n\\beta + n\\gamma)$ |
| AllGather | 递归倍增 / 环 | $\\log_2 p\\,\\alpha + \\frac{p-1}{p} n\\beta$（环：$(p-1)\\alpha + \\frac{p-1}{p} n\\beta$） |
| ReduceScatter | 递归减半 / 环 | $\\log_2 p\\,\\alpha + \\frac{p-1}{p} n(\\beta + \\gamma)$ |
| AllReduce | Ring（ReduceScatter + AllGather） | $2(p-1)\\alpha + 2\\frac{p-1}{p} n\\beta + \\frac{p-1}{p} n\\gamma$ |
| AllReduce | 减半-倍增 | $2\\log_2 p\\,\\alpha + 2\\frac{p-1}{p} n\\beta + \\frac{p-1}{p} n\\gamma$ |
""",
    "例：PyTorch 生成神经网络，要表示如下计算，会混用多个方言：": """
下面是一个示意（非课件原文）：同一个函数里混用 func、linalg、arith、math 方言。

```mlir
func.func @gelu_mm(%x: tensor<4x8xf32>, %w: tensor<8x16xf32>) -> tensor<4x16xf32> {
  %zero = arith.constant 0.0 : f32
  %init = tensor.empty() : tensor<4x16xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%init : tensor<4x16xf32>) -> tensor<4x16xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x8xf32>, tensor<8x16xf32>)
                     outs(%acc : tensor<4x16xf32>) -> tensor<4x16xf32>
  %t = math.tanh %y : tensor<4x16xf32>
  return %t : tensor<4x16xf32>
}
```
""",
}
