"""Fixtures of the lab's web-side tests (defined in labkit.py, which tests/test_lab_*.py reuse)."""

from gradinglab.tests.labkit import (  # noqa: F401
    assignment,
    gpu_worker_token,
    two_submissions,
    worker_token,
)
