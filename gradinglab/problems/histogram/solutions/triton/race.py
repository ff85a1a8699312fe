# Expected CPU-path status: wrong_answer.
# Mistake: read-increment-write without atomics. Lanes of one block that hold the same value all
# read the same old count and all store old + 1, so repeated values are counted once per block.
# The interpreter runs programs one after another, but the lost updates happen inside a single
# program (half the test data is one hot bin), so the CPU verdict is deterministic; on a GPU
# blocks also race with each other.
import torch
import triton
import triton.language as tl


@triton.jit
def histogram_kernel(data_ptr, hist_ptr, n, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    vals = tl.load(data_ptr + offs, mask=mask, other=0)
    old = tl.load(hist_ptr + vals, mask=mask, other=0)
    tl.store(hist_ptr + vals, old + 1, mask=mask)


def histogram(data: torch.Tensor, hist: torch.Tensor, n: int, num_bins: int) -> None:
    hist.zero_()  # the harness fills hist with -1
    BLOCK = 1024
    histogram_kernel[(triton.cdiv(n, BLOCK),)](data, hist, n, BLOCK=BLOCK)
