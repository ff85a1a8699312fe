# Expected CPU-path status: runtime_error.
# Mistake: the data load has no mask; for n = 1 (or 1000) the block reads past the end of data.
import torch
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(data_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    vals = tl.load(data_ptr + offs)
    tl.atomic_add(hist_ptr + vals, 1, mask=mask)


def histogram(data: torch.Tensor, hist: torch.Tensor, n: int, num_bins: int) -> None:
    hist.zero_()  # the harness fills hist with -1
    BLOCK = 1024
    histogram_kernel[(triton.cdiv(n, BLOCK),)](data, hist, n, BLOCK=BLOCK)
