"""Runner pieces without a sandbox: comparison, cost formulas, ptxas parsing, caps, floors."""

from __future__ import annotations

import json
import re
import string

import pytest
import torch

from gradinglab.runner import cuda_build, devices, load_problem, result, scoring
from gradinglab.runner.compare import check_tensor_type, compare, inputs_unchanged
from gradinglab.runner.problems import ProblemInvalid, ProblemNotFound, eval_cost
from gradinglab.runner.result import CAP_LOG, CAP_MESSAGE, finish, new_document, validate
from gradinglab.runner.testing import problem_copy, problems_dir_override, table_device
from gradinglab.runner.timing_check import judge


def test_compare_within_tolerance_passes_and_reports_error() -> None:
    e = torch.tensor([1.0, 2.0, 3.0])
    c = compare("out", e + 1e-6, e, atol=1e-5, rtol=1e-5)
    assert c.passed and c.mismatch_count == 0 and 0 < c.max_abs_error < 2e-6


def test_compare_reports_first_mismatch_index_in_2d() -> None:
    e = torch.zeros(3, 4)
    g = e.clone()
    g[1, 2] = 0.5
    g[2, 3] = 0.5
    c = compare("out", g, e, atol=1e-5, rtol=1e-5)
    assert not c.passed and c.mismatch_count == 2 and c.first_mismatch_index == [1, 2]
    assert c.max_abs_error == pytest.approx(0.5)


def test_compare_nan_and_inf_aware() -> None:
    e = torch.tensor([float("nan"), float("inf"), 1.0])
    assert compare("o", e.clone(), e, 1e-5, 1e-5).passed
    g = torch.tensor([float("nan"), float("-inf"), 1.0])
    assert not compare("o", g, e, 1e-5, 1e-5).passed
    unwritten = compare("o", torch.tensor([float("nan")]), torch.tensor([1.0]), 1e-5, 1e-5)
    assert not unwritten.passed and unwritten.max_abs_error == float("inf")
    assert "never written" in unwritten.message


def test_all_zero_answer_fails_with_o1_outputs() -> None:
    """KernelBench issue 165: outputs smaller than atol let zeros pass; ours are O(1)."""
    ref = load_problem("vector-add").reference_module()
    gen = torch.Generator().manual_seed(1)
    inputs = ref.make_inputs({"n": 1000}, torch.float32, gen, "cpu")
    expected = ref.reference(inputs, {"n": 1000})["out"]
    assert not compare("out", torch.zeros(1000), expected, 1e-5, 1e-5).passed
    assert torch.isnan(ref.make_outputs({"n": 4}, torch.float32, "cpu")["out"]).all()


def test_outputs_must_be_plain_tensors_of_exact_shape_dtype_device() -> None:
    class Lazy(torch.Tensor):
        pass

    e = torch.zeros(4)
    dev = torch.device("cpu")
    assert check_tensor_type("o", e.as_subclass(Lazy), e, dev) is not None
    assert check_tensor_type("o", torch.zeros(5), e, dev) is not None
    assert check_tensor_type("o", torch.zeros(4, dtype=torch.float64), e, dev) is not None
    assert check_tensor_type("o", [0.0] * 4, e, dev) is not None
    assert check_tensor_type("o", torch.zeros(4), e, dev) is None


def test_input_mutation_is_detected() -> None:
    before = {"x": torch.tensor([1.0, float("nan")])}
    assert inputs_unchanged(before, {"x": before["x"].clone()}) is None
    assert "modified" in inputs_unchanged(before, {"x": torch.tensor([2.0, float("nan")])})


def test_cost_formulas_are_evaluated_safely() -> None:
    assert eval_cost("3 * n * elem", {"n": 10, "elem": 4}) == 120
    assert eval_cost("2 * M * N * K", {"M": 2, "N": 3, "K": 4}) == 48
    for bad in ("__import__('os')", "n.real", "open", "2 ** 100000", "[n]"):
        with pytest.raises((ProblemInvalid, SyntaxError)):
            eval_cost(bad, {"n": 1})


def test_a_package_with_fewer_than_two_tests_is_invalid(tmp_path) -> None:
    one = [{"name": "only", "shape": {"n": 8}}]
    with problems_dir_override(problem_copy(tmp_path, "vector-add", tests=one)):
        with pytest.raises(ProblemInvalid, match="at least 2 cases"):
            load_problem("vector-add")


def test_unknown_problem_slug_is_not_found() -> None:
    for slug in ("nope", "../etc", "Vector_Add", ""):
        with pytest.raises(ProblemNotFound):
            load_problem(slug)


PTXAS = """ptxas info    : 0 bytes gmem
ptxas info    : Compiling entry function '_Z10add_kernelPKfS0_Pfi' for 'sm_80'
ptxas info    : Function properties for _Z10add_kernelPKfS0_Pfi
    16 bytes stack frame, 8 bytes spill stores, 4 bytes spill loads
ptxas info    : Used 40 registers, used 1 barriers, 4096 bytes smem, 380 bytes cmem[0]
"""


def test_ptxas_report_is_parsed_and_demangled() -> None:
    report = cuda_build.parse_ptxas(PTXAS)
    assert report["arch"] == "sm_80"
    (k,) = report["kernels"]
    assert (k["registers"], k["shared_mem_bytes"]) == (40, 4096)
    assert (k["stack_bytes"], k["spill_stores_bytes"], k["spill_loads_bytes"]) == (16, 8, 4)
    assert k["name"].startswith("add_kernel(")


def test_every_text_field_is_capped_and_validates() -> None:
    doc = new_document(slug="vector-add", backend="triton", path="cpu")
    doc["log"] = "x" * 1_000_000
    doc["tests"] = [
        {
            "name": "t" * 999,
            "shape": {"n": 1},
            "dtype": "float32",
            "passed": False,
            "max_abs_error": float("nan"),
            "max_rel_error": None,
            "mismatch_count": 1,
            "numel": 1,
            "first_mismatch_index": [0],
            "message": "m" * 99_999,
        }
    ]
    doc["flags"] = ["f" * 5000] * 100
    finish(doc, status="wrong_answer", message="y" * 100_000)
    validate(doc)
    assert len(doc["log"]) <= CAP_LOG and len(doc["message"]) <= CAP_MESSAGE
    assert "truncated" in doc["message"] and doc["tests"][0]["max_abs_error"] is None


def test_a_long_log_keeps_its_tail_where_the_error_is() -> None:
    """The cap kept a log's first 16 000 characters only: a program that printed a lot and then
    crashed lost its traceback."""
    doc = new_document(slug="vector-add", backend="triton", path="cpu")
    doc["log"] = "progress line\n" * 5000 + "RuntimeError: the real error"
    finish(doc, status="runtime_error", message="crashed")
    assert len(doc["log"]) == CAP_LOG, len(doc["log"])
    assert doc["log"].startswith("progress line") and doc["log"].endswith("the real error")
    assert "truncated" in doc["log"]


EMOJI = "\U0001f600"  # 4 bytes in UTF-8; 12 in the worker's ASCII-escaped JSON (two \\u escapes)


def test_logs_of_four_byte_characters_are_cut_to_the_byte_limit_head_and_tail() -> None:
    """The audit's document: a CUDA run whose two logs are full of U+1F600 was ~430 KB on the wire,
    over the web's 256 KiB, so it was refused and the run cost nothing."""
    doc = new_document(slug="vector-add", backend="cuda", path="cpu")
    doc["log"] = "head" + EMOJI * (result.CAP_LOG - 8) + "tail"  # at the character cap, not over
    doc["compile"] = {"ok": False, "log": EMOJI * result.CAP_COMPILE_LOG, "ptxas": None}
    finish(doc, status="compile_error", message="nvcc failed")
    validate(doc)
    assert len(result.wire_bytes(doc)) <= result.DOC_MAX_BYTES
    assert doc["log"].startswith("head") and doc["log"].endswith("tail")
    assert "characters cut" in doc["log"] and "characters cut" in doc["compile"]["log"]
    assert doc["message"] == "nvcc failed"  # short texts are left whole


@pytest.mark.parametrize("budget_bytes", [0, 5, 6, 80, 100, 1000])
def test_a_cut_text_fits_its_byte_budget_and_its_character_cap(budget_bytes: int) -> None:
    text = ('a\x01"\u4e00\ud800' + EMOJI) * 50  # 1 to 12 wire bytes a character
    cut = result.cut_to_wire(text, budget_bytes)
    assert len(json.dumps(cut)) - 2 <= budget_bytes and len(cut) <= len(text)
    if budget_bytes >= 1000:
        assert cut.startswith("a\x01") and cut.endswith(EMOJI) and "characters cut" in cut


# The two cutters, one rule (result.cut_text): name -> (cut(text, budget), the budget's measure).
CUTTERS = {
    "cap_text, head only": (lambda text, budget: result.cap_text(text, budget), len),
    "cap_text, head and tail": (lambda text, budget: result.cap_text(text, budget, tail=True), len),
    "cut_to_wire": (result.cut_to_wire, lambda text: len(json.dumps(text)) - 2),
}
CUT = re.compile(r"(?P<head>\w*)\n… \[(truncated )?(?P<n>\d+) characters[^\]]*\] …\n(?P<tail>\w*)")


@pytest.mark.parametrize("cutter", CUTTERS)
@pytest.mark.parametrize("budget", range(0, 130))
def test_each_cutter_keeps_head_and_tail_within_its_budget(cutter: str, budget: int) -> None:
    """Every budget from none to more than the text: the cut fits it (a cap smaller than its
    note used to return the note alone, longer than the cap), says how many characters it
    dropped, and, keeping the tail, gives the head the larger half."""
    cut, size = CUTTERS[cutter]
    text = string.ascii_letters * 2  # 104 characters of one unit each, in either measure
    kept = cut(text, budget)
    assert size(kept) <= budget and len(kept) <= len(text)
    if size(text) <= budget:
        assert kept == text
        return
    if kept in ("", "…"):  # no room for the note
        return
    parts = CUT.fullmatch(kept)
    assert parts is not None, kept
    head, tail = parts["head"], parts["tail"]
    assert text.startswith(head) and text.endswith(tail)
    assert int(parts["n"]) == len(text) - len(head) - len(tail)
    if cutter == "cap_text, head only":
        assert tail == "" and size(kept) > budget - 3  # the note's digits may shrink
    else:
        assert len(head) - len(tail) in (0, 1)


def test_a_body_with_every_student_text_full_fits_the_webs_limit() -> None:
    """Every text a submission can fill, at its character cap and count cap, in 12-byte characters;
    the score and elapsed_s that grade() adds after finish() and the body's envelope (the longest
    job token api.ResultIn takes) fit in the margin."""
    big = 2**63 - 1  # the widest integer a field can plausibly carry
    test = {
        "name": "t" * result.CAP_NAME, "shape": {"n": big}, "dtype": "float32", "passed": False,
        "max_abs_error": 1.2345678901234567e-300, "max_rel_error": -1.2345678901234567e300,
        "mismatch_count": big, "numel": big, "first_mismatch_index": [big] * 8,
        "message": EMOJI * result.CAP_TEST_MESSAGE,
    }  # fmt: skip
    kernel = {
        "name": EMOJI * result.CAP_NAME, "registers": big, "shared_mem_bytes": big,
        "spill_stores_bytes": big, "spill_loads_bytes": big, "stack_bytes": big,
    }  # fmt: skip
    doc = new_document(slug="vector-add", backend="cuda", path="cpu")
    doc["log"] = EMOJI * result.CAP_LOG
    doc["tests"] = [dict(test) for _ in range(result.MAX_TESTS)]
    doc["flags"] = [EMOJI * result.CAP_FLAG] * result.MAX_FLAGS
    doc["compile"] = {
        "ok": True,
        "log": EMOJI * result.CAP_COMPILE_LOG,
        "ptxas": {
            "arch": "sm_" + "9" * 17,
            "kernels": [dict(kernel) for _ in range(result.MAX_KERNELS)],
        },
    }
    finish(doc, status="wrong_answer", message=EMOJI * result.CAP_MESSAGE)
    scoring.apply(doc, load_problem("vector-add"))
    doc["elapsed_s"] = 1234567.891
    validate(doc)
    body = result.wire_bytes({"job_token": "j" * 200, "document": doc})
    assert len(body) <= result.RESULT_MAX_BYTES


def test_device_peak_table_and_compute_peak() -> None:
    assert devices.lookup("NVIDIA H200").gbps == 4800
    assert devices.lookup("NVIDIA H100 80GB HBM3").gbps == 3350
    assert devices.lookup("NVIDIA H100 PCIe").gbps == 2000
    assert devices.lookup("NVIDIA GeForce RTX 4090").gbps == 1008
    assert devices.lookup("Some Future GPU") is None
    peak = devices.lookup("NVIDIA A100-SXM4-80GB")
    assert devices.compute_peak(peak, "float32") == peak.tf32  # tl.dot uses TF32 by default


def test_time_below_the_physical_floor_is_rejected_and_flagged() -> None:
    """The roofline judgement itself (pure arithmetic; the GPU loop around it is in gpu tests)."""
    problem = load_problem("vector-add")
    n = 16 * 1024 * 1024
    doc = new_document(slug="vector-add", backend="cuda", path="gpu")
    doc["device"] = table_device("NVIDIA H200", 4800.0)
    floor_ms = 3 * n * 4 / 4800e9 * 1e3  # ~0.042 ms
    ok = judge(doc, problem, "large", {"n": n}, "float32", [floor_ms * 1.5] * 20, {}, ref_ms=0.1)
    assert ok is None and 0.6 < doc["timing"]["roofline_fraction"] < 0.7
    doc2 = new_document(slug="vector-add", backend="cuda", path="gpu")
    doc2["device"] = doc["device"]
    verdict = judge(
        doc2, problem, "large", {"n": n}, "float32", [floor_ms * 0.5] * 20, {}, ref_ms=0.1
    )
    assert verdict and verdict[0] == "rejected"
    assert any("physical floor" in f for f in doc2["flags"])
    # judge() fills one benchmark's raw figures; measure.combine() builds the document's timing,
    # validated in test_runner_timing.py.


@pytest.mark.parametrize(
    "dtype", [torch.float32, torch.float16, torch.bfloat16, torch.float64, torch.int32, torch.uint8]
)
def test_a_masked_set_unmasks_into_the_buffer_bit_for_bit(dtype) -> None:
    """gpu_timing.masked / unmask_into: XOR with the keystream of one seed, into the buffer's own
    memory; any other seed gives other bits (NaN payloads included: floats go through ints)."""
    from gradinglab.runner import gpu_timing

    plain = (torch.randn(4, 257) * 100).to(dtype)
    shipped = gpu_timing.masked(plain, 11)
    assert not torch.equal(shipped.view(torch.uint8), plain.view(torch.uint8))
    buffer = torch.empty_like(plain)
    gpu_timing.unmask_into(buffer, shipped, 11)
    assert torch.equal(buffer.view(torch.uint8), plain.view(torch.uint8))
    gpu_timing.unmask_into(buffer, shipped, 12)
    assert not torch.equal(buffer.view(torch.uint8), plain.view(torch.uint8))
