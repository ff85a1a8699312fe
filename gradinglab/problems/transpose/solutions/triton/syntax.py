# Expected CPU-path status: compile_error.
# Mistake: a stray closing bracket in the load (a Python syntax error).
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
    tile = tl.load(x_ptr + offs_r[:, None] * cols + offs_c[None, :]], mask=in_mask)
    out_mask = (offs_c[:, None] < cols) & (offs_r[None, :] < rows)
    tl.store(out_ptr + offs_c[:, None] * rows + offs_r[None, :], tl.trans(tile), mask=out_mask)


def transpose(x: torch.Tensor, out: torch.Tensor, rows: int, cols: int) -> None:
    BLOCK = 64
    grid = (triton.cdiv(rows, BLOCK), triton.cdiv(cols, BLOCK))
    transpose_kernel[grid](x, out, rows, cols, BLOCK=BLOCK)
