# Expected CPU-path status: wrong_answer.
# Mistake: atomic_add into the output without clearing it first. The harness allocates `out`
# filled with NaN, so NaN + partial sums stays NaN.
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def sum_reduction(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    BLOCK = 4096
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
