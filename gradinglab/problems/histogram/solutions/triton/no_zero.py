# Expected CPU-path status: wrong_answer.
# Mistake: hist is not cleared; the harness filled it with -1, so every bin is one short.
import torch
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(data_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    vals = tl.load(data_ptr + offs, mask=mask, other=0)
    tl.atomic_add(hist_ptr + vals, 1, mask=mask)


def histogram(data: torch.Tensor, hist: torch.Tensor, n: int, num_bins: int) -> None:
    BLOCK = 1024
    histogram_kernel[(triton.cdiv(n, BLOCK),)](data, hist, n, BLOCK=BLOCK)
