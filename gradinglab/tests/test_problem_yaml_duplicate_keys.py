"""A key written twice in a problem package's YAML is the package's error, at its line: YAML kept the
last value silently (a second `tests:` replaced the first list; an exploit listed twice in the
manifest was checked once). The sync reports that package and syncs the others, as it does for a
statement the renderer refuses; a problem.yaml that is no YAML at all stopped the whole sync."""

from __future__ import annotations

from pathlib import Path

import pytest

from gradinglab import precheck
from gradinglab.models import Problem
from gradinglab.problem_check import PackageInvalid, planned_rows
from gradinglab.runner.testing import problem_copy, problems_dir_override
from gradinglab.services.problem_sync import problems_sync


def _line(path: Path, start: str, nth: int = 1) -> int:
    """The 1-based line of the ``nth`` line of ``path`` that starts with ``start``."""
    lines = [n for n, line in enumerate(path.read_text().splitlines(), 1) if line.startswith(start)]
    return lines[nth - 1]


def _two_packages(tmp_path: Path, tail: str) -> tuple[Path, Path]:
    """vector-add with ``tail`` added to its problem.yaml, and softmax as it is."""
    root = tmp_path / "problems"
    root.mkdir()
    problem_copy(root, "vector-add")
    problem_copy(root, "softmax")
    yaml_path = root / "vector-add" / "problem.yaml"
    yaml_path.write_text(yaml_path.read_text(encoding="utf-8") + tail, encoding="utf-8")
    return root, yaml_path


@pytest.mark.django_db
def test_a_repeated_key_in_problem_yaml_is_reported_and_the_rest_synced(tmp_path: Path) -> None:
    root, yaml_path = _two_packages(tmp_path, "bound: compute\n")
    first, again = _line(yaml_path, "bound:"), _line(yaml_path, "bound:", 2)
    with problems_dir_override(root):
        counts = problems_sync()
    assert counts["errors"] == [
        f"vector-add: problem.yaml: line {again}: key 'bound' is written again "
        f"(first on line {first})"
    ]
    assert list(Problem.objects.values_list("slug", flat=True)) == ["softmax"]


@pytest.mark.django_db
def test_a_problem_yaml_that_is_no_yaml_is_reported_and_the_rest_synced(tmp_path: Path) -> None:
    root, _yaml_path = _two_packages(tmp_path, "tests: [\n")
    with problems_dir_override(root):
        counts = problems_sync()
    (error,) = counts["errors"]
    assert error.startswith("vector-add: problem.yaml: ")
    assert list(Problem.objects.values_list("slug", flat=True)) == ["softmax"]


def test_an_exploit_listed_twice_in_the_manifest_is_refused(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "solutions").mkdir(parents=True)
    (pkg / "exploits").mkdir()
    (pkg / "solutions" / "expected.yaml").write_text("triton: {}\n", encoding="utf-8")
    (pkg / "exploits" / "manifest.yaml").write_text(
        "exploits:\n  alias.py: {expect: wrong_answer}\n  alias.py: {expect: accepted}\n",
        encoding="utf-8",
    )
    with pytest.raises(PackageInvalid) as refused:
        planned_rows(pkg)
    said = "manifest.yaml: line 3: key 'alias.py' is written again (first on line 2)"
    assert str(refused.value) == said


def test_a_precheck_rule_written_twice_stops_the_check(tmp_path: Path) -> None:
    """The submit path fails closed on CheckerFailed: no kernel is graded under a policy whose
    author wrote one rule twice and meant only one of them."""
    root, yaml_path = _two_packages(tmp_path, "")
    text = yaml_path.read_text(encoding="utf-8")
    twice = "precheck:\n  streams: allow\n  streams: refuse\n"
    yaml_path.write_text(text.replace("precheck:\n", twice, 1), encoding="utf-8")
    with problems_dir_override(root), pytest.raises(precheck.CheckerFailed, match="'streams'"):
        precheck.policy_for("vector-add")
