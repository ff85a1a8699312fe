# Expected CPU-path status: compile_error.
# Mistake: an assignment inside a call argument (`mask=(offs < n_cols = 0)`), which is not
# valid Python: the module fails to parse.
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * n_cols + offs, mask=(offs < n_cols = 0), other=0.0)
    tl.store(out_ptr + row * n_cols + offs, x, mask=offs < n_cols)


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    layernorm_kernel[(n_rows,)](x, weight, bias, out, n_cols, 1e-5, BLOCK=triton.next_power_of_2(n_cols))
