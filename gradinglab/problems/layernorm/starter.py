"""Starter for LayerNorm (Triton). Fill in the TODOs; keep the entry-point signature."""
# ruff: noqa: F841  (a skeleton: its variables are used once the TODOs are filled in)

import torch
import triton
import triton.language as tl


@triton.jit
def layernorm_kernel(x_ptr, w_ptr, b_ptr, out_ptr, n_cols, eps, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    # TODO: load the row in float32 (masked), compute the mean over the n_cols real elements,
    # the biased variance of (x - mean) (masked lanes must contribute 0), normalise with
    # 1 / sqrt(var + eps), apply weight and bias, and store into out (masked).


def layernorm(x: torch.Tensor, weight: torch.Tensor, bias: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    BLOCK = triton.next_power_of_2(n_cols)
    layernorm_kernel[(n_rows,)](x, weight, bias, out, n_cols, 1e-5, BLOCK=BLOCK)
