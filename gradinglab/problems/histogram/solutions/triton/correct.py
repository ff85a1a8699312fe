# Expected CPU-path status: accepted.
# Global atomics: every lane does atomic_add(hist + value, 1) (lecture 5.11). Duplicate values
# in one block are separate atomic updates, so nothing is lost.
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
    hist.zero_()  # the harness fills hist with -1
    BLOCK = 1024
    histogram_kernel[(triton.cdiv(n, BLOCK),)](data, hist, n, BLOCK=BLOCK)
