import pytest

from flagreview.tests.kit import gpu_assignment, graded, rejected_doc
from gradinglab.tests.labkit import gpu_worker_token  # noqa: F401


@pytest.fixture
def rejected(client, client_a, gpu_worker_token, django_capture_on_commit_callbacks):  # noqa: F811
    """student_a's vector-add submission, rejected below the H100's floor (see kit.py)."""
    gpu_assignment()
    return graded(
        client, client_a, gpu_worker_token, rejected_doc(), django_capture_on_commit_callbacks
    )
