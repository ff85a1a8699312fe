"""Trusted reference for vector-add (never shipped into the sandbox)."""

from __future__ import annotations

import torch


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    n = shape["n"]
    # Standard normal values keep x + y at O(1), so an all-zero answer fails the check.
    x = torch.randn(n, generator=gen, dtype=torch.float32).to(device=device, dtype=dtype)
    y = torch.randn(n, generator=gen, dtype=torch.float32).to(device=device, dtype=dtype)
    return {"x": x, "y": y}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    # NaN sentinel: a kernel that writes nothing fails.
    return {"out": torch.full((shape["n"],), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    return {"out": inputs["x"] + inputs["y"]}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], inputs["y"], outputs["out"]]


def call_args_cuda(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], inputs["y"], outputs["out"], shape["n"]]
