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
    "kernel 可见的三类地址空间": """
按 CUDA 编程指南：全局内存（global，grid 内所有线程可见，`cudaMalloc` 分配，生存期跨 kernel）、共享内存（shared，同一 block 内可见，生存期为 block）、本地内存 / 寄存器（local，线程私有）。另有只读的常量内存（constant）与纹理内存。来源：NVIDIA CUDA C++ Programming Guide，Memory Hierarchy。
""",
    "共享内存被划分为多个 bank，访存延迟取决于同一 bank 上的冲突数：": """
以 NVIDIA GPU（计算能力 5.x 起）为例：共享内存分为 $32$ 个 bank，每个 bank 宽 $4$ 字节，地址 $a$ 所在 bank 为 $\\lfloor a/4 \\rfloor \\bmod 32$。

| 同一 warp 的访问 | 结果 |
|---|---|
| 32 个线程落在 32 个不同 bank | 一次完成，无冲突 |
| 多个线程读同一地址 | 广播（broadcast），无冲突 |
| $n$ 个线程访问同一 bank 的不同地址 | $n$ 路冲突，串行为 $n$ 次访问 |

来源：NVIDIA CUDA C++ Programming Guide，Shared Memory（Compute Capability 5.x）。
""",
    "静态分配 vs. 动态分配": """
| 方式 | 写法 | 大小何时确定 |
|---|---|---|
| 静态 | `__shared__ int sdata[256];` | 编译期常量 |
| 动态 | `extern __shared__ int sdata[];`，启动时 `<<<G, B, bytes>>>` 的第三个参数给出字节数 | 运行期（每次启动） |

来源：NVIDIA CUDA C++ Programming Guide，`__shared__` 与执行配置。
""",
    "5.7 三种卷积实现对比（本讲小结）": """
| 实现 | 长处 | 代价 |
|---|---|---|
| 直接卷积（Direct） | 不占额外内存 | 7 层循环难以利用数据复用，算力利用率低 |
| Img2Col + GEMM | 复用厂商高度优化的 GEMM | 展开后的输入矩阵约为原输入的 $K_h \\times K_w$ 倍内存 |
| Winograd | 乘法更少（如 $F(2\\times2,3\\times3)$ 为 $2.25\\times$） | 变换开销、数值稳定性随 tile 增大变差，主要用于 $3\\times3$、步长 1 |

来源：Chellapilla et al. 2006（Img2Col）；Lavin & Gray, CVPR 2016（Winograd）。
""",
    "线程层次与存储层次一一对应：": """
| 线程层次 | 对应存储 |
|---|---|
| 线程（thread） | 寄存器、本地内存 |
| 线程块（block / CTA） | 共享内存（SMEM） |
| 线程块簇（cluster，Hopper 起） | 分布式共享内存（DSMEM） |
| 网格（grid） | 全局内存（GMEM）、L2 |

来源：NVIDIA CUDA C++ Programming Guide，Memory Hierarchy。
""",
    "7.5 Tensor Core 演进总表（Tensor Core Evolution）": """
课件第 6 页的原表没有保存在讲义中；下表按 NVIDIA 各代架构白皮书整理，供对照（不是课件原表）。

| 架构（年份） | 新增的 Tensor Core 数据类型 | 发起粒度 / 代表指令 |
|---|---|---|
| Volta（2017） | FP16（FP32 累加） | warp，`mma.sync` / HMMA |
| Turing（2018） | INT8、INT4、Binary | warp，`mma.sync`；`ldmatrix` |
| Ampere（2020） | BF16、TF32、FP64 | warp，`mma.sync`；`cp.async` |
| Hopper（2022） | FP8（E4M3 / E5M2） | warpgroup，`wgmma`；TMA |
| Blackwell（2024） | FP6、FP4、MX 微缩放格式 | 单线程，`tcgen05.mma`；TMEM |
""",
    "torch.compile 三大关键组件（Key Components）": """
按 PyTorch 2 文档：TorchDynamo（在 Python 字节码层捕获计算图，遇到不支持的代码则 graph break 回退到 eager）、AOTAutograd（提前生成反向图）、TorchInductor（默认后端，为 GPU 生成 Triton kernel、为 CPU 生成 C++/OpenMP 代码）。来源：Ansel et al., "PyTorch 2", ASPLOS 2024。
""",
    "并行的三条正交轴（总览）": """
| 并行方式 | 切分的维度 | 主要通信 |
|---|---|---|
| 数据并行（DP） | batch（样本） | 梯度 AllReduce（ZeRO：ReduceScatter + AllGather） |
| 张量并行（TP） | 层内（hidden 维，切 GEMM） | 每层前向、反向各 AllReduce |
| 流水线并行（PP） | 层间（模型深度） | 相邻 stage 间点对点 Send / Recv |

（与 9.4.1 的「三轴正交」一致。）
""",
    "9.1.5 通信开销小结（09a 第 21 页）": """
每步每卡通信量（$\\Psi$ 为参数量，按元素计）：DDP 的梯度 AllReduce 为 $2\\Psi$；ZeRO-1、ZeRO-2 为 ReduceScatter $\\Psi$ + AllGather $\\Psi$ $= 2\\Psi$，与 DDP 相同；ZeRO-3 前向、反向各 AllGather 一次参数，再 ReduceScatter 梯度，共 $3\\Psi$（$1.5\\times$）。来源：Rajbhandari et al., "ZeRO", SC 2020，第 7 节。
""",
    "课件（10a）逐页给出 NCCL 文档中各原语的精确语义（root rank 举例为 rank 2，共 rank 0–3）：": """
$k$ 个 rank，每个 rank 的输入缓冲为 $\\text{in}_r$（按 NCCL 文档 Collective Operations 整理）：

| 原语 | 结果 |
|---|---|
| Broadcast | root 的 $N$ 个元素复制到所有 rank |
| Reduce | 各 rank 的 $N$ 个元素逐元素归约，结果只在 root |
| Gather | 各 rank 的 $N$ 个元素按 rank 顺序拼成 $kN$，只在 root（NCCL 2.28 起为原生 `ncclGather`） |
| Scatter | root 的 $kN$ 个元素切成 $k$ 份，第 $r$ 份发给 rank $r$（NCCL 2.28 起为原生 `ncclScatter`） |
| AllReduce | 逐元素归约，结果 $N$ 个元素在所有 rank |
| AllGather | 按 rank 顺序拼成 $kN$ 个元素，在所有 rank |
| ReduceScatter | 逐元素归约后切成 $k$ 份，rank $r$ 得到第 $r$ 份（$N/k$ 个） |
| AllToAll | rank $i$ 的第 $j$ 份发给 rank $j$，成为其第 $i$ 份（NCCL 2.28 起为原生 `ncclAlltoAll`） |

AllReduce = ReduceScatter + AllGather（Ring AllReduce 即按此实现）。NCCL 2.28 之前没有 Gather、Scatter、AllToAll 原语，只能用 `ncclGroupStart` / `ncclGroupEnd` 包住的 `ncclSend` / `ncclRecv` 实现。来源：NCCL 2.28 Release Notes。
""",
    "MPI 采用消息传递模型（Message-Passing Model）。最小例程集合如下：": """
| 例程 | 作用 |
|---|---|
| `MPI_Init` | 初始化 MPI 环境 |
| `MPI_Finalize` | 结束 MPI 环境 |
| `MPI_Comm_size` | 通信子中的进程数 |
| `MPI_Comm_rank` | 本进程在通信子中的编号 |
| `MPI_Send` | 阻塞发送 |
| `MPI_Recv` | 阻塞接收 |

来源：MPI 标准；Grama et al., Introduction to Parallel Computing，第 6 章。
""",
    "10.3.3 MPI 与 NCCL 的算子命名对照": """
| MPI | NCCL |
|---|---|
| `MPI_Bcast` | `ncclBroadcast` |
| `MPI_Reduce` | `ncclReduce` |
| `MPI_Allreduce` | `ncclAllReduce` |
| `MPI_Allgather` | `ncclAllGather` |
| `MPI_Reduce_scatter_block` | `ncclReduceScatter` |
| `MPI_Gather` | `ncclGather`（NCCL 2.28 起） |
| `MPI_Scatter` | `ncclScatter`（NCCL 2.28 起） |
| `MPI_Alltoall` | `ncclAlltoAll`（NCCL 2.28 起；更早的版本用分组的 `ncclSend` / `ncclRecv` 实现） |
| `MPI_Send` / `MPI_Recv` | `ncclSend` / `ncclRecv`（NCCL 2.7 起） |

来源：NCCL 文档（Collective Operations、Point-to-point communication）；NCCL 2.28 Release Notes。
""",
    "[自注] 上表严格照抄课件第 6 页。课件此表未列出 Blackwell 一行，其内容见后续 7.11–7.15。课件标题中提到 Blackwell 支持 FP8/FP4/微缩放（MX）等更低精度，但演进总表本身只覆盖到 Hopper。": """
这条自注说的「上表」是课件第 6 页的原表，讲义没有保存它；本节开头的表是编者按 NVIDIA 架构白皮书整理的对照表（含 Blackwell 一行），不是照抄课件。
""",
}
