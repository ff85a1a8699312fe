# Expected CPU-path status: accepted.
# Written the way the official vector-add tutorial is: the device comes from the active Triton
# driver at import time, the wrapper checks its tensors are on it, and the grid is a function of
# the meta-parameters. Under the interpreter the stand-in driver answers with the CPU device.
import torch
import triton
import triton.language as tl

DEVICE = triton.runtime.driver.active.get_active_torch_device()


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    tl.store(output_ptr + offsets, x + y, mask=mask)


def vector_add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:
    assert x.device == DEVICE and y.device == DEVICE and out.device == DEVICE
    n_elements = out.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta["BLOCK_SIZE"]),)  # noqa: E731
    add_kernel[grid](x, y, out, n_elements, BLOCK_SIZE=1024)
