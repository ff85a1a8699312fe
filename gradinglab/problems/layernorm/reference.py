"""Trusted reference for row-wise LayerNorm (runs only in the grader's trusted process)."""

from __future__ import annotations

import torch

EPS = 1.0e-5  # fixed by the problem statement
ROW_MEAN_SPREAD = 8.0  # row means uniform in [-4, 4): makes E[x^2] != Var[x]
# Every 4th row: mean +-8 with spread 0.5, so E[x^2] (~64) dwarfs Var[x] (0.25). The one-pass
# E[x^2] - E[x]^2 cancels in float32 and fails every job measured, while the two-pass solutions
# stay within 0.42 of the float32 tolerance (largest error / allowed error over those jobs;
# mean 16 pushed a correct two-pass kernel past the tolerance on 128 x 1536).
BIG_MEAN = 8.0
BIG_MEAN_STD = 0.5


def make_inputs(
    shape: dict, dtype: torch.dtype, gen: torch.Generator, device: str
) -> dict[str, torch.Tensor]:
    m, n = int(shape["m"]), int(shape["n"])
    means = (torch.rand(m, 1, generator=gen) - 0.5) * ROW_MEAN_SPREAD
    stds = torch.ones(m, 1)
    rows = torch.arange(m).unsqueeze(1)
    big = rows % 4 == 0
    sign = torch.where(rows % 8 == 0, 1.0, -1.0)
    means = torch.where(big, sign * BIG_MEAN, means)
    stds = torch.where(big, torch.tensor(BIG_MEAN_STD), stds)
    x = means + stds * torch.randn(m, n, generator=gen)
    weight = 1.0 + 0.25 * torch.randn(n, generator=gen)
    bias = 0.25 * torch.randn(n, generator=gen)
    return {
        "x": x.to(dtype=dtype, device=device),
        "weight": weight.to(dtype=dtype, device=device),
        "bias": bias.to(dtype=dtype, device=device),
    }


def make_outputs(shape: dict, dtype: torch.dtype, device: str) -> dict[str, torch.Tensor]:
    m, n = int(shape["m"]), int(shape["n"])
    return {"out": torch.full((m, n), float("nan"), dtype=dtype, device=device)}


def reference(inputs: dict[str, torch.Tensor], shape: dict) -> dict[str, torch.Tensor]:
    x, w, b = inputs["x"], inputs["weight"], inputs["bias"]
    y = torch.nn.functional.layer_norm(x.float(), (x.shape[1],), w.float(), b.float(), eps=EPS)
    return {"out": y.to(x.dtype)}


def call_args(inputs: dict, outputs: dict, shape: dict) -> list:
    return [inputs["x"], inputs["weight"], inputs["bias"], outputs["out"]]
