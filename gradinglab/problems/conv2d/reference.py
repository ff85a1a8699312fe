"""Trusted reference for single-channel 2-D convolution (runs only in the grader's process)."""

from __future__ import annotations

import torch

MAX_RADIUS = 4  # statement: filters up to 9 x 9 (CUDA solutions size constant memory by it)


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    h, w, r = int(shape["height"]), int(shape["width"]), int(shape["radius"])
    if not 1 <= r <= MAX_RADIUS:
        raise ValueError(f"radius must be in 1..{MAX_RADIUS}, got {r}")
    k = 2 * r + 1
    x = torch.randn(h, w, generator=gen)
    # Divide by k: a sum of k*k products of N(0,1) terms then has standard deviation ~1.
    weight = torch.randn(k, k, generator=gen) / k
    return {"x": x.to(dtype=dtype, device=device), "weight": weight.to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    h, w = int(shape["height"]), int(shape["width"])
    return {"out": torch.full((h, w), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    x, weight = inputs["x"], inputs["weight"]
    r = int(shape["radius"])
    # float64: cuDNN may use TF32 for float32 convolutions on the GPU host.
    y = torch.nn.functional.conv2d(x.double()[None, None], weight.double()[None, None], padding=r)
    return {"out": y[0, 0].to(x.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [
        inputs["x"],
        inputs["weight"],
        outputs["out"],
        int(shape["height"]),
        int(shape["width"]),
        int(shape["radius"]),
    ]


def baseline(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    """What the speedup is measured against: PyTorch's own conv in the problem's dtype."""
    x, weight = inputs["x"], inputs["weight"]
    r = int(shape["radius"])
    y = torch.nn.functional.conv2d(x[None, None], weight[None, None], padding=r)
    return {"out": y[0, 0]}
