"""A package whose statement the renderer refuses (over MAX_SOURCE_CHARS, an unclosed ``` fence)
is reported by the sync with its slug, and the other packages are still synced: the refusal was
an uncaught RenderError inside the sync's transaction, so no package was synced at all."""

from __future__ import annotations

import pytest

from gradinglab.models import Problem
from gradinglab.runner.testing import problem_copy, problems_dir_override
from gradinglab.services.problem_sync import problems_sync
from lectures.rendering import MAX_SOURCE_CHARS

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("zh", ["字" * (MAX_SOURCE_CHARS + 1), "```python\nx = 1\n"])
def test_a_statement_the_renderer_refuses_is_reported_and_the_rest_synced(tmp_path, zh) -> None:
    root = tmp_path / "problems"
    root.mkdir()
    problem_copy(root, "vector-add", statement={"zh": zh, "en": "Add."})
    problem_copy(root, "softmax")
    with problems_dir_override(root):
        counts = problems_sync()
    (error,) = counts["errors"]
    assert error.startswith("vector-add: statement: ")
    assert counts["created"] == 1
    assert list(Problem.objects.values_list("slug", flat=True)) == ["softmax"]
