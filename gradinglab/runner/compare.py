"""Trusted-side comparison of student outputs with the reference (NaN/inf aware)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from .messages import Msg


@dataclass
class Comparison:
    passed: bool
    max_abs_error: float | None
    max_rel_error: float | None
    mismatch_count: int | None
    numel: int | None
    first_mismatch_index: list[int] | None
    message: str


def _fail(message: str, numel: int | None = None) -> Comparison:
    return Comparison(False, None, None, None, numel, None, message)


def check_tensor_type(
    name: str, got: Any, expected: torch.Tensor, device: torch.device
) -> Comparison | None:
    """Exact torch.Tensor (no subclass: lazy tensors could defer work), shape, dtype, device."""
    if type(got) is not torch.Tensor:
        return _fail(Msg("output_not_tensor", output=repr(name), kind=type(got).__name__))
    if tuple(got.shape) != tuple(expected.shape):
        said = {"got": tuple(got.shape), "expected": tuple(expected.shape)}
        return _fail(Msg("output_shape", output=repr(name), **said))
    if got.dtype != expected.dtype:
        return _fail(Msg("output_dtype", output=repr(name), got=got.dtype, expected=expected.dtype))
    if got.device.type != device.type:
        return _fail(Msg("output_device", output=repr(name), got=got.device, expected=device))
    return None


def compare(
    name: str, got: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float
) -> Comparison:
    """|got - expected| <= atol + rtol * |expected| elementwise; NaN/inf must match exactly."""
    numel = expected.numel()
    g = got.detach().to("cpu", torch.float64).reshape(-1)
    e = expected.detach().to("cpu", torch.float64).reshape(-1)
    if numel == 0:
        return Comparison(True, 0.0, 0.0, 0, 0, None, "")
    diff = (g - e).abs()
    finite = torch.isfinite(e) & torch.isfinite(g)
    ok = finite & (diff <= atol + rtol * e.abs())
    # Non-finite expected values must be reproduced exactly (same inf sign, NaN for NaN).
    both_nan = torch.isnan(e) & torch.isnan(g)
    same_inf = torch.isinf(e) & (g == e)
    ok = ok | both_nan | same_inf
    bad = ~ok
    mismatches = int(bad.sum())
    d_fin = torch.where(finite, diff, torch.zeros_like(diff))
    # A non-finite value where a finite one was expected is an unbounded error (null in JSON).
    unbounded = bool((bad & ~torch.isfinite(g) & torch.isfinite(e)).any())
    max_abs = float("inf") if unbounded else float(d_fin.max())
    rel = d_fin / e.abs().clamp_min(1e-12)
    max_rel = (
        float("inf") if unbounded else float(torch.where(finite, rel, torch.zeros_like(rel)).max())
    )
    if mismatches == 0:
        return Comparison(True, max_abs, max_rel, 0, numel, None, "")
    flat = int(torch.nonzero(bad)[0])
    index = [int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(expected.shape))]
    message = Msg(
        "elements_differ_nan" if bool(torch.isnan(g[flat])) else "elements_differ",
        output=name,
        mismatches=mismatches,
        numel=numel,
        index=index,
        got=f"{float(g[flat]):.6g}",
        expected=f"{float(e[flat]):.6g}",
        atol=f"{atol:g}",
        rtol=f"{rtol:g}",
    )
    return Comparison(False, max_abs, max_rel, mismatches, numel, index, message)


def inputs_unchanged(before: dict[str, torch.Tensor], after: dict[str, Any]) -> str | None:
    """Return a message naming the first input the submission modified, else None."""
    for key, original in before.items():
        now = after.get(key)
        if type(now) is not torch.Tensor or now.shape != original.shape:
            return Msg("input_wrong_form", input=repr(key))
        same = torch.equal(now.cpu(), original.cpu()) or (
            original.is_floating_point()
            and bool(
                ((now.cpu() == original.cpu()) | (now.cpu().isnan() & original.cpu().isnan())).all()
            )
        )
        if not same:
            return Msg("input_modified", input=repr(key))
    return None
