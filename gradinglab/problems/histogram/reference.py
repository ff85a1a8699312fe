"""Trusted reference for histogram (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch

HOT_FRACTION = 0.5  # share of elements in one "hot" bin: guarantees collisions in every block
SENTINEL = -1  # hist starts at -1, so a solution that never clears it is off by one everywhere


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    n, bins = int(shape["n"]), int(shape["num_bins"])
    if int(shape.get("all_in_last_bin", 0)):  # every update collides, on the edge bin B - 1
        return {"data": torch.full((n,), bins - 1, dtype=dtype, device=device)}
    uniform = torch.randint(0, bins, (n,), generator=gen)
    hot_bin = torch.randint(0, bins, (1,), generator=gen)
    hot = torch.rand(n, generator=gen) < HOT_FRACTION
    data = torch.where(hot, hot_bin, uniform)
    return {"data": data.to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    bins = int(shape["num_bins"])
    return {"hist": torch.full((bins,), SENTINEL, dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    data = inputs["data"]
    counts = torch.bincount(data.long(), minlength=int(shape["num_bins"]))
    return {"hist": counts.to(data.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["data"], outputs["hist"], int(shape["n"]), int(shape["num_bins"])]
