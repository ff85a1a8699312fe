"""Kernel grading runner: problem packages, sandboxed checking, timing. Importable without Django."""

from .grader import grade
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
