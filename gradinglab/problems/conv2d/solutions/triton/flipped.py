# Expected CPU-path status: wrong_answer.
# Mistake: the filter is flipped (w[2r - a][2r - b], textbook convolution) while the problem
# asks for the lecture's / PyTorch's cross-correlation. Random filters are not symmetric.
import torch
import triton
import triton.language as tl


@triton.jit
def conv2d_kernel(x_ptr, w_ptr, out_ptr, H, W, R, BH: tl.constexpr, BW: tl.constexpr):
    rows = tl.program_id(0) * BH + tl.arange(0, BH)
    cols = tl.program_id(1) * BW + tl.arange(0, BW)
    acc = tl.zeros([BH, BW], dtype=tl.float32)
    K = 2 * R + 1
    for a in range(0, K):
        in_r = rows + a - R
        r_ok = (in_r >= 0) & (in_r < H)
        for b in range(0, K):
            in_c = cols + b - R
            c_ok = (in_c >= 0) & (in_c < W)
            wv = tl.load(w_ptr + (K - 1 - a) * K + (K - 1 - b))
            tile = tl.load(x_ptr + in_r[:, None] * W + in_c[None, :],
                           mask=r_ok[:, None] & c_ok[None, :], other=0.0)
            acc += wv * tile
    out_mask = (rows[:, None] < H) & (cols[None, :] < W)
    tl.store(out_ptr + rows[:, None] * W + cols[None, :], acc, mask=out_mask)


def conv2d(x: torch.Tensor, weight: torch.Tensor, out: torch.Tensor,
           height: int, width: int, radius: int) -> None:
    BH, BW = 64, 64
    grid = (triton.cdiv(height, BH), triton.cdiv(width, BW))
    conv2d_kernel[grid](x, weight, out, height, width, radius, BH=BH, BW=BW)
