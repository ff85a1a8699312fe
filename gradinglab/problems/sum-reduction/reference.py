"""Trusted reference for sum-reduction (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    n = int(shape["n"])
    # Per-job scale in [0.5, 1.5) so the sum is O(1) but not a guessable constant.
    scale = 0.5 + torch.rand((), generator=gen, dtype=torch.float64).item()
    x = torch.rand(n, generator=gen, dtype=torch.float64) * (2.0 * scale / n)
    return {"x": x.to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    # NaN, not zero: an atomic-add solution must clear it, and "did nothing" fails.
    return {"out": torch.full((1,), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    x = inputs["x"]
    # float64 accumulation: the reference must be more accurate than any student order.
    total = x.double().sum().reshape(1)
    return {"out": total.to(x.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], outputs["out"], int(shape["n"])]


def baseline(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    """What the speedup is measured against: torch.sum in the problem's dtype."""
    return {"out": inputs["x"].sum().reshape(1)}
