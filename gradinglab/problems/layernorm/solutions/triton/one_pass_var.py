# Expected CPU-path status: wrong_answer.
# Mistake: the one-pass variance E[x^2] - E[x]^2. Algebraically right, but in float32 it cancels
# catastrophically when a row's mean is large against its spread (rows of mean 8, spread 0.5:
# E[x^2] is about 64, the variance 0.25), so those rows come out wrong.
import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0).to(tl.float32)
    mean = tl.sum(x, axis=0) / n_cols
    var = tl.sum(x * x, axis=0) / n_cols - mean * mean
    diff = tl.where(mask, x - mean, 0.0)
    rstd = 1.0 / tl.sqrt(var + eps)
    w = tl.load(w_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    b = tl.load(b_ptr + offs, mask=mask, other=0.0).to(tl.float32)
    tl.store(out_ptr + row * n_cols + offs, diff * rstd * w + b, mask=mask)


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    BLOCK = triton.next_power_of_2(n_cols)
    layernorm_kernel[(n_rows,)](x, weight, bias, out, n_cols, 1e-5, BLOCK=BLOCK)
