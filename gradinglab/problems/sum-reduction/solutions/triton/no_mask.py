# Expected CPU-path status: runtime_error.
# Mistake: the load has no mask, so the last block reads past the end of x whenever n is not a
# multiple of BLOCK (n = 1 and n = 1000 here). The runner catches the out-of-bounds load.
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def sum_reduction(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    BLOCK = 4096
    out.zero_()
    sum_kernel[(triton.cdiv(n, BLOCK),)](x, out, n, BLOCK=BLOCK)
