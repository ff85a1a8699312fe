# Expected CPU-path status: accepted.
# Kernel decomposition (lecture 5.14): level 0 writes one partial sum per program, level 1 reduces
# the partials in a single program.
import torch
import triton
import triton.language as tl


@triton.jit
def partial_sum_kernel(x_ptr, partial_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(partial_ptr + pid, tl.sum(x, axis=0))


@triton.jit
def final_sum_kernel(partial_ptr, out_ptr, num_partials, BLOCK: tl.constexpr):
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for start in range(0, num_partials, BLOCK):
        offs = start + tl.arange(0, BLOCK)
        acc += tl.load(partial_ptr + offs, mask=offs < num_partials, other=0.0)
    tl.store(out_ptr, tl.sum(acc, axis=0))


def sum_reduction(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    BLOCK = 4096
    num_blocks = triton.cdiv(n, BLOCK)
    partials = torch.empty(num_blocks, dtype=torch.float32, device=x.device)
    partial_sum_kernel[(num_blocks,)](x, partials, n, BLOCK=BLOCK)
    final_sum_kernel[(1,)](partials, out, num_blocks, BLOCK=1024)
