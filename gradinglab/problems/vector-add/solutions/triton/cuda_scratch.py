# Expected CPU-path status: needs_gpu.
# Allocates its block counter on "cuda" by name instead of on the inputs' device. That truly
# needs a GPU: on the CPU path it is needs_gpu (not a pass, and not the student's compile or
# runtime error); on a GPU host it is correct.
import torch
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, blocks_done_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)
    tl.atomic_add(blocks_done_ptr, 1)


def vector_add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:
    n = out.numel()
    blocks_done = torch.zeros(1, dtype=torch.int32, device="cuda")
    add_kernel[(triton.cdiv(n, 1024),)](x, y, out, blocks_done, n, BLOCK=1024)
