# Expected CPU-path status: wrong_answer.
# Mistake: every program stores its partial sum straight into out[0] (plain store, no atomics,
# no second level), so only one block's sum survives. Wrong whenever n > BLOCK (n = 12345).
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr, tl.sum(x, axis=0))


def sum_reduction(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    BLOCK = 4096
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
