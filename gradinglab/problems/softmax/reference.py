"""Trusted reference for row-wise softmax (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch

# Rows whose logits sit near +/-100: e^100 overflows float32 (max ~e^88.7), so a softmax that
# does not subtract the row max yields inf/inf = NaN there. Fixed pattern by row index so the
# verdict for such a solution does not depend on the per-job seed.
LARGE_OFFSET = 100.0
NOISE = 4.0  # half-width of the uniform noise around each row's offset, in logit units


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    m, n = int(shape["m"]), int(shape["n"])
    offsets = (torch.rand(m, 1, generator=gen) - 0.5) * 10.0
    rows = torch.arange(m).unsqueeze(1)
    offsets = torch.where(rows % 4 == 0, torch.tensor(LARGE_OFFSET), offsets)
    offsets = torch.where(rows % 4 == 1, torch.tensor(-LARGE_OFFSET), offsets)
    noise = (torch.rand(m, n, generator=gen) * 2.0 - 1.0) * NOISE
    return {"x": (offsets + noise).to(dtype=dtype, device=device)}


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    m, n = int(shape["m"]), int(shape["n"])
    return {"out": torch.full((m, n), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    x = inputs["x"]
    return {"out": torch.softmax(x.float(), dim=1).to(x.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], outputs["out"]]
