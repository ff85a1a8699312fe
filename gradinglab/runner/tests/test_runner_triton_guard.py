"""Must hold 3: out-of-bounds Triton loads/stores on the CPU path are runtime_error, kernel named.

Without the guard the interpreter reads garbage silently (small overrun) or segfaults (far one).
"""

from __future__ import annotations

import pytest

from gradinglab.runner import grade
from gradinglab.runner.result import validate
from gradinglab.runner.testing import graded_solution, solution


def _grade(src: str) -> dict:
    doc = grade(slug="vector-add", source=src, backend="triton", device="cpu")
    validate(doc)
    return doc


@pytest.mark.parametrize(("name", "op"), [("no_mask.py", "load"), ("store_unmasked.py", "store")])
def test_unmasked_access_names_kernel_and_operation(name: str, op: str) -> None:
    doc = graded_solution("vector-add", "triton", name)
    validate(doc)
    assert doc["status"] == "runtime_error"
    assert f"out-of-bounds {op} in kernel 'add_kernel'" in doc["message"], doc["message"]
    failed = [t for t in doc["tests"] if not t["passed"]]
    assert failed and failed[0]["name"] == "tiny"  # n=1: the first test already overruns


def test_far_out_of_bounds_load_is_caught_not_a_segfault() -> None:
    src = solution("vector-add", "triton", "correct.py").replace(
        "x = tl.load(x_ptr + offs, mask=mask)", "x = tl.load(x_ptr + offs + 1_000_000_000)"
    )
    assert "1_000_000_000" in src
    doc = _grade(src)
    assert doc["status"] == "runtime_error"
    assert "out-of-bounds load in kernel 'add_kernel'" in doc["message"], doc["message"]


def test_device_assert_is_active_in_the_interpreter() -> None:
    doc = graded_solution("vector-add", "triton", "device_assert.py")
    assert doc["status"] == "runtime_error"
    assert (
        "tl.device_assert failed in kernel 'add_kernel': only one block expected" in doc["message"]
    )
