"""Must hold 5: the result document validates against its schema for EVERY status."""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import Any

import pytest

from gradinglab.runner import RESULT_SCHEMA, STATUSES, grade, pool, sandbox
from gradinglab.runner.result import validate
from gradinglab.runner.testing import graded_solution, problem_copy, solution

LIMITS = {"cpu_seconds": 2, "wall_seconds": 10, "memory_mb": 1536}  # s, s, MiB
HEAD = "import torch\n\n\ndef vector_add(x, y, out):\n"


@pytest.fixture(scope="module")
def docs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, dict[str, Any]]]:
    out = {  # shared with test_solutions when both run in one session (graded once)
        "accepted": graded_solution("vector-add", "triton", "correct.py"),
        "wrong_answer": graded_solution("vector-add", "triton", "off_by_one.py"),
        "compile_error": graded_solution("vector-add", "triton", "syntax.py"),
        "runtime_error": graded_solution("vector-add", "triton", "no_mask.py"),
        "needs_gpu": graded_solution("vector-add", "cuda", "correct.cu"),
    }
    root = problem_copy(tmp_path_factory.mktemp("problems"), "vector-add", limits=LIMITS)
    old = os.environ.get("PDC_PROBLEMS_DIR")
    os.environ["PDC_PROBLEMS_DIR"] = str(root)

    def g(src: str, backend: str = "triton") -> dict[str, Any]:
        return grade(slug="vector-add", source=src, backend=backend, device="cpu")

    out["timeout"] = g(HEAD + "    while True:\n        pass\n")
    out["memory_limit"] = g(HEAD + "    hog = torch.ones(4 * 1024**3, dtype=torch.uint8)\n")
    out["rejected"] = g("   \n")
    pool.get_pool(None).shutdown()
    saved, sandbox.BWRAP = sandbox.BWRAP, "/nonexistent/bwrap"
    try:
        out["infrastructure_error"] = g(solution("vector-add", "triton", "correct.py"))
    finally:
        sandbox.BWRAP = saved
        if old is None:
            os.environ.pop("PDC_PROBLEMS_DIR", None)
        else:
            os.environ["PDC_PROBLEMS_DIR"] = old
    yield out


def test_schema_lists_exactly_the_runner_statuses() -> None:
    assert tuple(RESULT_SCHEMA["properties"]["status"]["enum"]) == STATUSES


@pytest.mark.parametrize("status", STATUSES)
def test_document_for_status_validates(status: str, docs: dict[str, dict[str, Any]]) -> None:
    doc = docs[status]
    assert doc["status"] == status, f"{doc['status']}: {doc['message']}"
    validate(doc)
    assert doc["gradable"] is (status != "infrastructure_error")
    assert doc["message"]


def test_validation_rejects_a_broken_document(docs: dict[str, dict[str, Any]]) -> None:
    import jsonschema

    bad = dict(docs["accepted"], status="passed")
    with pytest.raises(jsonschema.ValidationError):
        validate(bad)
    extra = dict(docs["accepted"], secret_seed=1)
    with pytest.raises(jsonschema.ValidationError):
        validate(extra)
