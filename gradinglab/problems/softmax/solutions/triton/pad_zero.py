# Expected CPU-path status: wrong_answer.
# Mistake: masked lanes are padded with 0.0 instead of -inf. On rows whose logits are all
# negative (every 4th row sits near -100) the padding becomes the row max and dominates the
# denominator whenever N is not a power of two (N = 1000, 781).
import torch
import triton
import triton.language as tl


@triton.jit
def softmax_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n_cols
    x = tl.load(x_ptr + row * n_cols + offs, mask=mask, other=0.0).to(tl.float32)
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * n_cols + offs, num / tl.sum(num, axis=0), mask=mask)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    softmax_kernel[(n_rows,)](x, out, n_cols, BLOCK=triton.next_power_of_2(n_cols))
