"""Fixtures of the lab's web-side tests (defined in labkit.py, which tests/test_lab_*.py reuse)."""

from gradinglab.tests.labkit import assignment, gpu_worker_token, worker_token  # noqa: F401
