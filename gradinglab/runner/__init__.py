"""Kernel grading runner: problem packages, sandboxed checking, timing. Importable without Django.

`grade` is imported lazily: listing problems, the CLI's usage errors and the light sandbox harness
must not pay for importing torch.
"""

from typing import Any

from .problems import Problem, ProblemInvalid, ProblemNotFound, list_problems, load_problem
from .result import RESULT_SCHEMA, RUNNER_VERSION, STATUSES

__all__ = [
    "RESULT_SCHEMA",
    "RUNNER_VERSION",
    "STATUSES",
    "Problem",
    "ProblemInvalid",
    "ProblemNotFound",
    "grade",
    "list_problems",
    "load_problem",
]


def __getattr__(name: str) -> Any:
    if name == "grade":
        from .grader import grade

        return grade
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
