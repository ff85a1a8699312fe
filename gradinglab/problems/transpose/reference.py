"""Trusted reference for matrix transpose (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    rows, cols = int(shape["rows"]), int(shape["cols"])
    # randn has no repeated structure, so any index mistake shows up as a mismatch.
    return {"x": torch.randn(rows, cols, generator=gen).to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    rows, cols = int(shape["rows"]), int(shape["cols"])
    return {"out": torch.full((cols, rows), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    return {"out": inputs["x"].t().contiguous()}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], outputs["out"], int(shape["rows"]), int(shape["cols"])]
