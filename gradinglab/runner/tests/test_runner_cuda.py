"""Must hold 4: nvcc runs for real on the CPU path. A compile error returns nvcc's message with
its line number; a correct source returns the ptxas report, then needs_gpu (never a fake pass)."""

from __future__ import annotations

from gradinglab.runner.result import validate
from gradinglab.runner.testing import graded_solution


def test_compile_error_has_nvcc_message_with_line_number() -> None:
    doc = graded_solution("vector-add", "cuda", "syntax_error.cu")
    validate(doc)
    assert doc["status"] == "compile_error"
    assert 'submission.cu(7): error: expected a ";"' in doc["message"]
    assert doc["compile"]["ok"] is False and "submission.cu(7)" in doc["compile"]["log"]
    assert "/run/job" not in doc["compile"]["log"] and "/tmp/" not in doc["compile"]["log"]


def test_correct_source_returns_ptxas_report_and_needs_gpu() -> None:
    doc = graded_solution("vector-add", "cuda", "correct.cu")
    validate(doc)
    assert doc["status"] == "needs_gpu" and doc["gradable"] and doc["score"] is None
    assert "not a pass" in doc["message"]
    ptxas = doc["compile"]["ptxas"]
    assert ptxas["arch"].startswith("sm_")
    (kernel,) = ptxas["kernels"]
    assert kernel["name"].startswith("add_kernel(")
    assert kernel["registers"] > 0 and kernel["spill_stores_bytes"] == 0
    assert kernel["shared_mem_bytes"] == 0


def test_missing_extern_c_entry_is_compile_error() -> None:
    doc = graded_solution("vector-add", "cuda", "missing_entry.cu")
    assert doc["status"] == "compile_error" and 'extern "C"' in doc["message"]
