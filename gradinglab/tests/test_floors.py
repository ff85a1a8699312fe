"""Issue 12: physical floors from the fastest precision the tolerance admits, and repeat comparison
within tolerance instead of bit-exact. CPU only (pure arithmetic and CPU tensors)."""

from __future__ import annotations

import pytest
import torch

from gradinglab.runner import devices, floors, load_problem
from gradinglab.runner.result import new_document
from gradinglab.runner.timing_check import judge, outputs_agree

H100 = devices.lookup("NVIDIA H100 80GB HBM3")


def test_precisions_admitted_by_the_tolerance() -> None:
    assert floors.admitted_precisions("float32", 1e-5) == ["float32"]
    assert set(floors.admitted_precisions("float32", 1e-3)) == {"float32", "tf32", "float16"}
    assert set(floors.admitted_precisions("float32", 1e-2)) == {
        "float32",
        "tf32",
        "float16",
        "bfloat16",
    }
    assert floors.admitted_precisions("int32", 0.5) == ["int32"]


def test_float32_matmul_floor_uses_the_bf16_rate_its_tolerance_admits() -> None:
    """matmul's float32 rtol 1e-2 admits bf16 tensor cores (989 TFLOP/s on H100), so a legitimate
    bf16-in-registers 4096^3 GEMM at 0.2 ms is not 'faster than the hardware allows'."""
    matmul = load_problem("matmul")
    shape = {"m": 4096, "n": 4096, "k": 4096}
    floor = floors.physical_floor(matmul, shape, "float32", H100)
    assert floor.precision in ("bfloat16", "float16")
    flops = 2 * 4096**3
    assert floor.floor_ms == pytest.approx(flops / 989e12 * 1e3)
    honest_bf16_ms = flops / (700e12) * 1e3  # 70 % of the bf16 peak: 0.196 ms
    assert honest_bf16_ms > floor.floor_ms
    old_tf32_floor = flops / (494e12) * 1e3  # what the fp32/tf32 rule gave: 0.278 ms
    assert honest_bf16_ms < old_tf32_floor


def test_tight_tolerance_keeps_the_fp32_rate() -> None:
    vector_add = load_problem("vector-add")  # rtol 1e-5: only fp32 arithmetic is admitted
    floor = floors.physical_floor(vector_add, {"n": 16777216}, "float32", H100)
    assert floor.precision == "float32"
    assert floor.floor_ms == pytest.approx(3 * 16777216 * 4 / 3350e9 * 1e3)  # memory-bound


def test_worker_kind_without_a_device_takes_the_fastest_variant() -> None:
    peak = floors.peak_for_worker("h100")
    assert peak.gbps == 3900  # H100 NVL: a PCIe or SXM part can never beat its floor
    assert floors.peak_for_worker("h100", "NVIDIA H100 PCIe").gbps == 2000
    assert floors.peak_for_worker("rtx4090").gbps == 1008
    assert floors.peak_for_worker("tpu-v9") is None


def test_judge_accepts_a_bf16_speed_float32_matmul_on_h100() -> None:
    matmul = load_problem("matmul")
    doc = new_document(slug="matmul", backend="triton", path="gpu")
    doc["device"] = {
        "kind": "cuda",
        "name": "NVIDIA H100 80GB HBM3",
        "peak_gbps": 3350.0,
        "peak_tflops": 67.0,
        "peak_source": "table",
    }
    shape = {"m": 4096, "n": 4096, "k": 4096}
    times = [2 * 4096**3 / 700e12 * 1e3] * 12
    assert judge(doc, matmul, "square-4k", shape, "float32", times, {}, None) is None
    fake = [t / 10 for t in times]  # 7000 TFLOP/s: impossible on any precision
    verdict = judge(doc, matmul, "square-4k", shape, "float32", fake, {}, None)
    assert verdict and verdict[0] == "rejected"


def test_repeat_comparison_is_within_tolerance_not_bit_exact() -> None:
    """A float-atomic reduction's last bits vary between calls; a real change does not pass."""
    first = torch.tensor([1.0, 2.0, float("nan"), float("inf")])
    atomic = first.clone()
    atomic[0] = torch.nextafter(atomic[0], torch.tensor(2.0))
    assert not torch.equal(first, atomic)
    assert outputs_agree(first, atomic, atol=1e-5, rtol=1e-5)
    cached = first.clone()
    cached[1] = 2.5
    assert not outputs_agree(first, cached, atol=1e-5, rtol=1e-5)
    moved_nan = torch.tensor([float("nan"), 2.0, 1.0, float("inf")])
    assert not outputs_agree(first, moved_nan, atol=1e-5, rtol=1e-5)
    assert not outputs_agree(first, torch.tensor([1.0, 2.0, float("nan"), -float("inf")]), 1, 1)
    assert not outputs_agree(torch.tensor([1, 2]), torch.tensor([1, 3]), atol=10, rtol=10)
    assert outputs_agree(torch.tensor([1, 2]), torch.tensor([1, 2]), atol=0, rtol=0)
