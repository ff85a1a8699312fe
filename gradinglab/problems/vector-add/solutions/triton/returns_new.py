import torch


def vector_add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor):
    # Bug: returns a fresh tensor instead of writing into `out`.
    return x + y
