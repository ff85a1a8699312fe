"""The weighted-sum check of every timed call's whole output (measure._check_sums): a correct
output within tolerance passes, one wrong outside the sampled elements does not, and the signs are
the same wherever they are computed (the sandbox's device and the parent's)."""

from __future__ import annotations

import random

import pytest
import torch

from gradinglab.runner import gpu_timing, measure

N = 200_000  # elements: far more than the 4096 the parent samples per call


def _bench(expected: torch.Tensor, tol: tuple[float, float]) -> dict:
    return {"trusted": [{"expected": {"out": expected}, "tol": tol, "inputs": {}}]}


def _round(bench: dict, got: torch.Tensor, seed: int) -> measure.Round:
    """A one-call round whose sandbox computed its sum honestly over `got`."""
    sums = {"out": gpu_timing.weighted_sums([got], gpu_timing.sum_seed(seed, "out"))}
    return measure.Round(0.0, [0.0], [0], seed, {"inputs": {}, "outputs": {}, "sums": sums})


def test_each_call_of_a_round_has_its_own_signs() -> None:
    """Call i's block sums use sign bit i: independent deviations across the round's calls."""
    t = torch.randn(N, generator=torch.Generator().manual_seed(4))
    sums = gpu_timing.weighted_sums([t, t, t], 11)
    for i in range(3):
        signed = t.double() * gpu_timing.sign_weights(N, 11, "cpu", call=i)
        assert torch.allclose(sums[i], gpu_timing.block_sums(signed), rtol=0, atol=1e-9)
    w0, w1 = (gpu_timing.sign_weights(N, 11, "cpu", call=i) for i in (0, 1))
    assert abs(float((w0 * w1).mean())) < 0.01
    assert sums.shape == (3, gpu_timing.SUM_BLOCKS)


def test_sign_weights_are_fixed_by_seed_and_index() -> None:
    w = gpu_timing.sign_weights(8, 2026, "cpu")
    assert w.dtype == torch.float64 and set(w.tolist()) <= {1.0, -1.0}
    assert torch.equal(w, gpu_timing.sign_weights(8, 2026, "cpu"))
    # pinned: the sandbox and the parent must agree, so the function may not drift silently
    assert w.tolist() == [1.0, -1.0, -1.0, -1.0, 1.0, -1.0, -1.0, -1.0]
    assert gpu_timing.sign_weights(4, 1, "cpu").tolist() == [1.0, -1.0, 1.0, -1.0]
    big = gpu_timing.sign_weights(N, 7, "cpu")
    assert abs(float(big.mean())) < 0.01  # balanced
    other = gpu_timing.sign_weights(N, 8, "cpu")
    assert abs(float((big * other).mean())) < 0.01  # another seed, other signs


@pytest.mark.parametrize("seed", range(20))
def test_every_element_at_the_edge_of_its_tolerance_passes(seed: int) -> None:
    """Errors of full tolerance on every element, their signs fixed before the round's seed."""
    gen = torch.Generator().manual_seed(seed)
    expected = torch.randn(N, generator=gen)
    atol, rtol = 1e-3, 1e-3
    signs = torch.randint(0, 2, (N,), generator=gen) * 2 - 1
    got = expected.double() + signs * (atol + rtol * expected.double().abs()) * 0.999
    bench = _bench(expected, (atol, rtol))
    assert measure._check_sums(bench, _round(bench, got, random.getrandbits(63))) is None


def test_the_same_error_on_every_element_passes() -> None:
    """A systematic error (every element high by its tolerance) is no worse than random signs."""
    expected = torch.randn(N, generator=torch.Generator().manual_seed(1))
    got = expected.double() + (1e-3 + 1e-3 * expected.double().abs()) * 0.999
    bench = _bench(expected, (1e-3, 1e-3))
    for seed in range(10):
        assert measure._check_sums(bench, _round(bench, got, seed)) is None


@pytest.mark.parametrize("wrong_share", [1.0, 0.05, 0.01])
def test_elements_left_unwritten_fail(wrong_share: float) -> None:
    """Zeros where the work was skipped (all of it, 5 %, 1 % of the elements)."""
    expected = torch.randn(N, generator=torch.Generator().manual_seed(2))
    got = expected.clone()
    got[: int(N * wrong_share)] = 0.0
    bench = _bench(expected, (1e-3, 1e-3))
    said = measure._check_sums(bench, _round(bench, got, 99))
    assert said is not None and "weighted sum" in said


def test_exact_outputs_need_exact_sums() -> None:
    """atol = rtol = 0 (integer outputs): only float64 rounding is allowed."""
    expected = torch.randint(-1000, 1000, (N,), generator=torch.Generator().manual_seed(3))
    bench = _bench(expected, (0.0, 0.0))
    assert measure._check_sums(bench, _round(bench, expected, 5)) is None
    off = expected.clone()
    off[N // 2] += 1
    assert measure._check_sums(bench, _round(bench, off, 5)) is not None


def test_outputs_with_non_finite_expected_values_are_left_to_the_samples() -> None:
    expected = torch.randn(N)
    expected[10] = float("inf")
    bench = _bench(expected, (1e-3, 1e-3))
    assert measure._sum_allowance(bench, 0, "out") is None
    assert measure._check_sums(bench, _round(bench, torch.zeros(N), 1)) is None


@pytest.mark.parametrize(
    "sums",
    [
        None,
        {},
        {"out": [0.0]},
        {"out": torch.zeros(2, dtype=torch.float64)},
        {"out": torch.zeros(1)},
    ],
)
def test_missing_or_malformed_sums_fail(sums) -> None:
    bench = _bench(torch.randn(16), (1e-3, 1e-3))
    sample = {"inputs": {}, "outputs": {}}
    if sums is not None:
        sample["sums"] = sums
    said = measure._check_sums(bench, measure.Round(0.0, [0.0], [0], 1, sample))
    assert said is not None and ("wrong form" in said or "missing" in said)
