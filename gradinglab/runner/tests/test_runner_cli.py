"""CLI exit codes and output: `python -m gradinglab.runner` (no Django) and `manage.py grade`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from gradinglab.runner.result import validate
from gradinglab.runner.sandbox import CODE_ROOT

SOL = CODE_ROOT / "gradinglab" / "problems" / "vector-add" / "solutions"


def _run(*args: str, module: bool = True) -> subprocess.CompletedProcess[str]:
    cmd = (
        [sys.executable, "-m", "gradinglab.runner", *args]
        if module
        else [sys.executable, "manage.py", *args]
    )
    return subprocess.run(cmd, cwd=CODE_ROOT, capture_output=True, text=True, timeout=300)


def test_module_cli_accepted_json_exit_0() -> None:
    r = _run("grade", "vector-add", str(SOL / "triton" / "correct.py"), "--json")
    assert r.returncode == 0, r.stderr[-2000:]
    doc = json.loads(r.stdout)
    validate(doc)
    assert doc["status"] == "accepted"


def test_manage_py_wrong_answer_readable_report_exit_1() -> None:
    r = _run("grade", "vector-add", str(SOL / "triton" / "off_by_one.py"), module=False)
    assert r.returncode == 1, r.stderr[-2000:]
    assert "WRONG_ANSWER" in r.stdout and "FAIL" in r.stdout


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    assert _run("grade", "no-such-problem", str(SOL / "triton" / "correct.py")).returncode == 2
    assert _run("grade", "vector-add", str(tmp_path / "missing.py")).returncode == 2
    assert _run("grade").returncode == 2


def test_problems_lists_vector_add() -> None:
    r = _run("problems", "--json")
    assert r.returncode == 0
    slugs = [p["slug"] for p in json.loads(r.stdout)]
    assert "vector-add" in slugs
    r2 = _run("problems", module=False)
    assert r2.returncode == 0 and "vector-add" in r2.stdout


def test_infrastructure_error_exit_3() -> None:
    import os

    env = {**os.environ, "PDC_BWRAP": "/nonexistent/bwrap"}
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "gradinglab.runner",
            "grade",
            "vector-add",
            str(SOL / "triton" / "correct.py"),
            "--json",
        ],
        cwd=CODE_ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert r.returncode == 3
    assert json.loads(r.stdout)["gradable"] is False
