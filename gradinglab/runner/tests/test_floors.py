"""Issue 12: physical floors from the fastest precision the tolerance admits, and repeat comparison
within tolerance instead of bit-exact. CPU only (pure arithmetic and CPU tensors)."""

from __future__ import annotations

import pytest
import torch

from gradinglab.runner import devices, floors, load_problem
from gradinglab.runner.result import new_document
from gradinglab.runner.testing import table_device
from gradinglab.runner.timing_check import judge

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
    doc["device"] = table_device("NVIDIA H100 80GB HBM3", 3350.0)
    shape = {"m": 4096, "n": 4096, "k": 4096}
    times = [2 * 4096**3 / 700e12 * 1e3] * 12
    assert judge(doc, matmul, "square-4k", shape, "float32", times, {}, None) is None
    fake = [t / 10 for t in times]  # 7000 TFLOP/s: impossible on any precision
    verdict = judge(doc, matmul, "square-4k", shape, "float32", fake, {}, None)
    assert verdict and verdict[0] == "rejected"


def test_timed_calls_are_compared_within_tolerance_not_bit_exact() -> None:
    """Issue 12: every timed call's outputs are compared with its set's expected outputs within the
    problem's tolerance (runner/measure.py, `compare`); no call-to-call bit-exact check is left, so
    a float-atomic reduction whose last bits vary between calls passes and a wrong value does not."""
    import inspect

    from gradinglab.runner import measure
    from gradinglab.runner.compare import compare

    expected = torch.tensor([1.0, 2.0, 3.0])
    call1 = expected.clone()
    call2 = expected.clone()
    call2[0] = torch.nextafter(call2[0], torch.tensor(2.0))  # atomics: another summation order
    assert not torch.equal(call1, call2)
    assert compare("out", call1, expected, 1e-5, 1e-5).passed
    assert compare("out", call2, expected, 1e-5, 1e-5).passed
    assert not compare("out", torch.tensor([1.0, 2.5, 3.0]), expected, 1e-5, 1e-5).passed
    assert "torch.equal" not in inspect.getsource(measure)  # outputs never compared bit-exact
