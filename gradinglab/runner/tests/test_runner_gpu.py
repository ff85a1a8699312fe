"""GPU path (Must hold 6): these run only on a CUDA host and skip elsewhere, saying so.

bench/gpu_check.sh runs the same checks plus a comparison with triton.testing.do_bench.
"""

from __future__ import annotations

import pytest
import torch

from gradinglab.runner import grade
from gradinglab.runner.result import validate
from gradinglab.runner.testing import solution

needs_gpu = pytest.mark.skipif(
    not torch.cuda.is_available(),
    reason="needs a CUDA GPU: GPU-path timing, roofline and device nodes cannot run on this host",
)


@needs_gpu
def test_cuda_correct_is_accepted_with_timing_and_roofline() -> None:
    doc = grade(
        slug="vector-add", source=solution("vector-add", "cuda", "correct.cu"), backend="cuda"
    )
    validate(doc)
    assert doc["status"] == "accepted", doc["message"]
    t = doc["timing"]
    assert t["runs"] >= 10 and t["median_ms"] > 0 and t["gbps"] > 0
    assert t["clock"] == "trusted-parent" and t["ci95_ms"][0] <= t["median_ms"] <= t["ci95_ms"][1]
    assert [b["name"] for b in t["benchmarks"]] == ["large"]
    assert t["floor_ms"] and t["median_ms"] >= t["floor_ms"]
    assert 0 < t["roofline_fraction"] <= 1.0
    assert t["reference_median_ms"] and t["speedup_vs_reference"]
    assert doc["compile"]["ptxas"]["kernels"][0]["registers"] > 0
    assert doc["score"]["performance"] is not None


@needs_gpu
def test_triton_correct_is_accepted_on_gpu() -> None:
    doc = grade(
        slug="vector-add", source=solution("vector-add", "triton", "correct.py"), backend="triton"
    )
    validate(doc)
    assert doc["status"] == "accepted" and doc["path"] == "gpu", doc["message"]


@needs_gpu
def test_side_stream_work_is_not_hidden_from_the_checker() -> None:
    """Cheat 5: work launched on a side stream; outputs are checked after a device-wide sync."""
    src = solution("vector-add", "triton", "correct.py").replace(
        "def vector_add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:\n",
        "def vector_add(x: torch.Tensor, y: torch.Tensor, out: torch.Tensor) -> None:\n"
        "    s = torch.cuda.Stream()\n    with torch.cuda.stream(s):\n        _real(x, y, out)\n\n\n"
        "def _real(x, y, out):\n",
    )
    doc = grade(slug="vector-add", source=src, backend="triton")
    validate(doc)
    assert doc["status"] == "accepted", doc["message"]
    # The side-stream work is inside the trusted window (device-wide sync before the snapshot):
    # the time is that of the same kernel on the default stream, not the event pair's near-zero.
    plain = grade(
        slug="vector-add", source=solution("vector-add", "triton", "correct.py"), backend="triton"
    )
    assert doc["timing"]["median_ms"] >= 0.8 * plain["timing"]["median_ms"]


@needs_gpu
def test_out_of_bounds_cuda_write_is_runtime_error_or_caught() -> None:
    src = solution("vector-add", "cuda", "correct.cu").replace(
        "if (i < n) {", "if (i < n + (1 << 28)) {"
    )
    doc = grade(slug="vector-add", source=src, backend="cuda")
    validate(doc)
    assert doc["status"] in ("runtime_error", "wrong_answer"), doc["message"]


@needs_gpu
def test_sum_check_signs_are_the_same_on_the_gpu_and_the_cpu() -> None:
    """The sandbox computes each call's weighted sum on the GPU; the parent may compute the
    expected one on either device (measure._check_sums): the signs must be the same."""
    from gradinglab.runner import gpu_timing

    for seed in (1, 2026, 2**62 - 1):
        cpu = gpu_timing.sign_weights(1 << 20, seed, "cpu")
        assert torch.equal(gpu_timing.sign_weights(1 << 20, seed, "cuda").cpu(), cpu)
        for call in (1, 7):  # each call of a round its own bit of the hash
            cpu = gpu_timing.sign_weights(1 << 20, seed, "cpu", call=call)
            assert torch.equal(gpu_timing.sign_weights(1 << 20, seed, "cuda", call=call).cpu(), cpu)
    t = torch.randn(1 << 20)
    assert gpu_timing.weighted_sum(t.cuda(), 5) == pytest.approx(
        gpu_timing.weighted_sum(t, 5), rel=1e-9, abs=1e-6
    )
    ts = [torch.randn(1 << 20) for _ in range(3)]  # the sign flip in place: the same as weights
    on_gpu = gpu_timing.weighted_sums([x.cuda() for x in ts], 5)
    assert torch.allclose(on_gpu, gpu_timing.weighted_sums(ts, 5), rtol=1e-9, atol=1e-9)


@needs_gpu
def test_the_mask_keystream_is_the_same_in_another_process() -> None:
    """The parent masks the timed sets with the device's generator; the sandbox, another process,
    unmasks with its own (gpu_timing.masked): both must draw the same stream."""
    import subprocess
    import sys
    import tempfile

    from gradinglab.runner import gpu_timing

    here = gpu_timing.keystream(1 << 20, 9, torch.int32, "cuda").cpu()
    code = (
        "import sys, torch; from gradinglab.runner import gpu_timing as G; "
        "torch.save(G.keystream(1 << 20, 9, torch.int32, 'cuda').cpu(), sys.argv[1])"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = f"{tmp}/stream.pt"
        subprocess.run([sys.executable, "-c", code, path], check=True)
        assert torch.equal(torch.load(path), here)
    x = torch.randn(1 << 20, device="cuda")
    assert torch.equal(gpu_timing.masked(gpu_timing.masked(x, 3), 3), x)
