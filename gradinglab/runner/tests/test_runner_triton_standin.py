"""Issue 11, must hold 6 (the pieces): the stand-in driver's answers, without installing it in
the test process (installing patches torch.cuda's queries). The tutorial-pattern kernels
themselves are graded end to end through the sandbox as package solutions (expected.yaml:
vector-add correct_tutorial_driver.py / cuda_scratch.py, softmax correct_tutorial_persistent.py
/ tutorial_no_max.py, matmul correct_tutorial_autotune.py / tutorial_b_not_advanced.py); with the stand-in
removed from triton_guard.install they come back needs_gpu ("0 active drivers"), not accepted.
"""

from __future__ import annotations

from gradinglab.runner import triton_standin


def test_needs_gpu_reason_follows_the_cause_chain() -> None:
    try:
        try:
            raise AssertionError("Torch not compiled with CUDA enabled")
        except AssertionError as inner:
            raise RuntimeError("InterpreterError(...)") from inner
    except RuntimeError as outer:
        reason = triton_standin.needs_gpu_reason(outer)
    assert reason == "AssertionError: Torch not compiled with CUDA enabled"
    assert triton_standin.needs_gpu_reason(ValueError("index 3 out of range")) is None
    assert triton_standin.needs_gpu_reason(RuntimeError("0 active drivers ([])")) is not None


def test_autotune_benchmarker_runs_no_kernel_and_ties_every_config() -> None:
    calls = []
    times = triton_standin._benchmark_nothing(lambda: calls.append(1), quantiles=(0.5, 0.2, 0.8))
    assert times == [0.0, 0.0, 0.0] and calls == []


def test_warmup_kernel_reports_plausible_resources_and_fills_constexprs() -> None:
    class Fn:
        arg_names = ["out", "x", "n", "BLOCK", "num_stages"]

        def run(self, *args, grid, warmup, **kwargs):
            return args, grid, warmup, kwargs

    kernel = triton_standin.StandInKernel(Fn(), {"BLOCK": 64, "num_stages": 2, "num_warps": 8})
    props = triton_standin._Utils.get_device_properties(None)
    occupancy = props["max_num_regs"] // (kernel.n_regs * props["warpSize"] * 8)
    occupancy = min(occupancy, props["max_shared_mem"] // kernel.metadata.shared)
    assert occupancy >= 1 and props["multiprocessor_count"] * occupancy > 100
    # every argument positionally (the tutorial's launch) or only the runtime ones
    assert kernel[(4,)]("o", "x", 9, 64, 2) == (("o", "x", 9, 64, 2), (4,), False, {"num_warps": 8})
    _, _, _, kw = kernel[(4,)]("o", "x", 9)
    assert kw == {"BLOCK": 64, "num_stages": 2, "num_warps": 8}
