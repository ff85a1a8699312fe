# Expected CPU-path status: accepted.
# Privatised sub-histograms (lecture 2.24): each program counts its block with tl.histogram,
# then merges with one atomic_add per bin instead of one per element (less contention).
import torch
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(data_ptr, hist_ptr, n, num_bins, BLOCK: tl.constexpr, BINS: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    vals = tl.load(data_ptr + offs, mask=mask, other=0)
    local = tl.histogram(vals, BINS, mask=mask)
    bins = tl.arange(0, BINS)
    tl.atomic_add(hist_ptr + bins, local, mask=(bins < num_bins) & (local > 0))


def histogram(data: torch.Tensor, hist: torch.Tensor, n: int, num_bins: int) -> None:
    hist.zero_()
    BLOCK = 1024
    BINS = triton.next_power_of_2(num_bins)
    grid = (triton.cdiv(n, BLOCK),)
    histogram_kernel[grid](data, hist, n, num_bins, BLOCK=BLOCK, BINS=BINS)
