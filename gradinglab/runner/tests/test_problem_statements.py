"""Issue 11: the CPU budget a kernel gets under the interpreter is stated where the student reads
it, in both languages, with the figures the runner really applies (Limits merged with the
package's `limits`)."""

from __future__ import annotations

import pytest

from gradinglab.runner import list_problems
from gradinglab.runner.sandbox import Limits

PROBLEMS = list_problems()


@pytest.mark.parametrize("problem", PROBLEMS, ids=[p.slug for p in PROBLEMS])
def test_statement_states_the_cpu_budget_the_runner_applies(problem) -> None:
    lim = Limits().merged(problem.limits)
    cpu, wall, mem = f"{lim.cpu_seconds:g}", f"{lim.wall_seconds:g}", str(lim.memory_mb)
    zh = "".join(problem.statement["zh"].split())  # line breaks fall anywhere in the text
    assert "CPU评测预算" in zh and f"{cpu}sCPU时间" in zh, problem.slug
    assert f"{wall}s墙钟时间" in zh and f"{mem}MiB内存" in zh, problem.slug
    flat = " ".join(problem.statement["en"].split())
    assert "CPU budget" in flat and f"{cpu} s of CPU time" in flat, problem.slug
    assert f"{wall} s of wall clock" in flat and f"{mem} MiB of memory" in flat
