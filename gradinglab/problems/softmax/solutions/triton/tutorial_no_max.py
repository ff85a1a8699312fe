# Expected CPU-path status: wrong_answer.
# The tutorial-style persistent softmax (correct_tutorial_persistent.py) with one real mistake: it
# skips subtracting the row maximum, so the rows whose logits sit near +100 overflow (e^100
# is inf in float32) and come out NaN. The stand-in driver answers the device queries; the
# verdict is the real one.
import torch
import triton
import triton.language as tl
from triton.runtime import driver

DEVICE = triton.runtime.driver.active.get_active_torch_device()


def is_hip():
    return triton.runtime.driver.active.get_current_target().backend == "hip"


properties = driver.active.utils.get_device_properties(DEVICE.index)
NUM_SM = properties["multiprocessor_count"]
NUM_REGS = properties["max_num_regs"]
SIZE_SMEM = properties["max_shared_mem"]
WARP_SIZE = properties["warpSize"]
target = triton.runtime.driver.active.get_current_target()


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_row_stride, out_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        cols = tl.arange(0, BLOCK_SIZE)
        mask = cols < n_cols
        row = tl.load(in_ptr + row_idx * in_row_stride + cols, mask=mask, other=-float("inf"))
        row = row.to(tl.float32)
        shifted = row
        num = tl.exp(shifted)
        out = num / tl.sum(num, axis=0)
        tl.store(out_ptr + row_idx * out_row_stride + cols, out, mask=mask)


def softmax(x: torch.Tensor, out: torch.Tensor) -> None:
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    num_warps = 8
    num_stages = 4 if SIZE_SMEM > 200000 else 2
    kernel = softmax_kernel.warmup(out, x, x.stride(0), out.stride(0), n_rows, n_cols,
                                   BLOCK_SIZE=BLOCK_SIZE, num_stages=num_stages,
                                   num_warps=num_warps, grid=(1,))
    kernel._init_handles()
    n_regs = kernel.n_regs
    size_smem = kernel.metadata.shared
    occupancy = NUM_REGS // (n_regs * WARP_SIZE * num_warps)
    occupancy = min(occupancy, SIZE_SMEM // size_smem)
    num_programs = min(NUM_SM * occupancy, n_rows)
    kernel[(num_programs, 1, 1)](out, x, x.stride(0), out.stride(0), n_rows, n_cols,
                                 BLOCK_SIZE, num_stages)
