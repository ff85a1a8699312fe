# Expected CPU-path status: compile_error.
# Mistake: missing colon after the `def` line (a Python syntax error).
import torch
import triton
import triton.language as tl


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr)
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(x, axis=0))


def sum_reduction(x: torch.Tensor, out: torch.Tensor, n: int) -> None:
    out.zero_()
    sum_kernel[(triton.cdiv(n, 4096),)](x, out, n, BLOCK=4096)
