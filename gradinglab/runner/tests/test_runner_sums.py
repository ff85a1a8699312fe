"""The weighted-sum check of every timed call's whole output (measure._check_sums): a correct
output within tolerance passes, one wrong outside the sampled elements does not, and the signs are
the same wherever they are computed (the sandbox's device and the parent's)."""

from __future__ import annotations

import math
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


def _calls(expected: list[torch.Tensor], got: list[torch.Tensor], seed: int) -> tuple:
    """A round of len(got) calls, call i given set i, and its bench: (bench, round)."""
    trusted = [{"expected": {"out": e}, "tol": (1e-3, 1e-3), "inputs": {}} for e in expected]
    sums = {"out": gpu_timing.weighted_sums(got, gpu_timing.sum_seed(seed, "out"))}
    order = list(range(len(got)))
    sample = {"inputs": {}, "outputs": {}, "sums": sums}
    return {"trusted": trusted}, measure.Round(0.0, [0.0] * len(got), order, seed, sample)


def _off_by(expected: torch.Tensor, times: float, gen: torch.Generator) -> torch.Tensor:
    """`expected` with every element off by `times` its tolerance (1e-3 + 1e-3 |e|), random signs."""
    signs = torch.randint(0, 2, expected.shape, generator=gen) * 2 - 1
    return expected.double() + signs * times * (1e-3 + 1e-3 * expected.double().abs())


def test_twice_the_tolerance_everywhere_passes_each_call_but_not_the_blocks_together() -> None:
    """Every call's own sum is off by about 2 sqrt(sum t^2), inside its 10 sqrt(sum t^2); the
    64 blocks of 8 calls, 512 deviations of about 2 each, are not."""
    gen = torch.Generator().manual_seed(5)
    expected = [torch.randn(N, generator=gen) for _ in range(8)]
    bench, rnd = _calls(expected, [_off_by(e, 2.0, gen) for e in expected], 77)
    wants = gpu_timing.weighted_sums(expected, gpu_timing.sum_seed(77, "out"))
    assert measure._check_calls(bench, rnd, "out", rnd.sample["sums"]["out"], wants) is None
    said = measure._check_sums(bench, rnd)
    assert said is not None and "512 weighted sums over blocks" in said, said


def test_errors_at_the_edge_of_tolerance_pass_round_after_round() -> None:
    """30 rounds of 8 calls, every element off by its full tolerance (random signs, and the same
    sign everywhere): the deviations of all 15 360 blocks together stay under the limit, which
    is above their mean (1 per block) by the slack an honest kernel needs."""
    gen = torch.Generator().manual_seed(6)
    expected = [torch.randn(N // 8, generator=gen) for _ in range(8)]
    for bias in (False, True):
        bench = None
        for r in range(30):
            got = [_off_by(e, 0.999, gen) for e in expected]
            if bias:
                got = [e.double() + 0.999 * (1e-3 + 1e-3 * e.double().abs()) for e in expected]
            trusted, rnd = _calls(expected, got, 1000 * r + bias)
            bench = bench or trusted
            assert measure._check_sums(bench, rnd) is None, r
        total, terms = bench["sum_spread"]["out"]
        assert terms == 30 * 8 * 64 and 0.95 < total / terms < 1.05  # mean <= 0.998


def test_the_limit_is_where_the_chi_square_bound_reaches_the_false_rejection_rate() -> None:
    for terms in (1, 64, 512, 100_000):
        r = measure.spread_limit(terms) / terms
        bound = math.exp(-terms / 2 * (r - 1 - math.log(r)))
        assert bound == pytest.approx(measure.SPREAD_FALSE_REJECTION, rel=1e-6)
    assert measure.spread_limit(512) / 512 < 1.7  # catches a mean of 4 (twice the tolerance)


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
    assert measure._sum_scale(bench, 0, "out") is None
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
