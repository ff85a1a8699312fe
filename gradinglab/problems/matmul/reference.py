"""Trusted reference for matmul (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    m, n, k = int(shape["m"]), int(shape["n"]), int(shape["k"])
    # Each factor scaled by K^-1/4 so a dot product of K terms has standard deviation ~1.
    scale = float(k) ** -0.25
    a = torch.randn(m, k, generator=gen) * scale
    b = torch.randn(k, n, generator=gen) * scale
    return {"a": a.to(dtype=dtype, device=device), "b": b.to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    m, n = int(shape["m"]), int(shape["n"])
    return {"c": torch.full((m, n), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    a, b = inputs["a"], inputs["b"]
    # float64 so the reference is independent of TF32 / cuBLAS settings on the host.
    return {"c": (a.double() @ b.double()).to(a.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [
        inputs["a"],
        inputs["b"],
        outputs["c"],
        int(shape["m"]),
        int(shape["n"]),
        int(shape["k"]),
    ]


def baseline(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    """What the speedup is measured against: torch.mm in the problem's dtype."""
    return {"c": torch.mm(inputs["a"], inputs["b"])}
