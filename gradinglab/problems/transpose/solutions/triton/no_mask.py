# Expected CPU-path status: runtime_error.
# Mistake: no masks on the tile load and store. For a 37 x 53 matrix the last tile row reaches
# rows 37..63, past the end of x; the runner reports the out-of-bounds load.
import torch
import triton
import triton.language as tl


@triton.jit
def transpose_kernel(x_ptr, out_ptr, rows, cols, BLOCK: tl.constexpr):
    pid_r = tl.program_id(0)
    pid_c = tl.program_id(1)
    offs_r = pid_r * BLOCK + tl.arange(0, BLOCK)
    offs_c = pid_c * BLOCK + tl.arange(0, BLOCK)
    in_mask = (offs_r[:, None] < rows) & (offs_c[None, :] < cols)
    tile = tl.load(x_ptr + offs_r[:, None] * cols + offs_c[None, :])
    out_mask = (offs_c[:, None] < cols) & (offs_r[None, :] < rows)
    tl.store(out_ptr + offs_c[:, None] * rows + offs_r[None, :], tl.trans(tile))


def transpose(x: torch.Tensor, out: torch.Tensor, rows: int, cols: int) -> None:
    BLOCK = 64
    grid = (triton.cdiv(rows, BLOCK), triton.cdiv(cols, BLOCK))
    transpose_kernel[grid](x, out, rows, cols, BLOCK=BLOCK)
