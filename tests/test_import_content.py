"""scripts/import_content.sh (what `make run` and the production web service run before serving).

Each import runs, in order, and the first one that fails stops the script with a non-zero exit: the
site must not start with the quiz bank silently missing. (The script used to ask `manage.py help`
first and skip a command that did not load: a broken import module left the course without that
content.) Runs the real script from a scratch copy of the repository layout whose
`.venv/bin/python` is a stand-in that logs its arguments (no Django).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STAND_IN = """#!/bin/sh
echo "$*" >> "{log}"
case "$*" in *{failing}*) echo "ImportError: broken command" >&2; exit 1;; esac
"""


def _run(tmp_path: Path, failing: str) -> tuple[subprocess.CompletedProcess, list[str]]:
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "import_content.sh", tmp_path / "scripts")
    python = tmp_path / ".venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    log = tmp_path / "calls.log"
    python.write_text(STAND_IN.format(log=log, failing=failing))
    python.chmod(0o755)
    proc = subprocess.run(
        ["bash", str(tmp_path / "scripts" / "import_content.sh")],
        capture_output=True,
        text=True,
        timeout=30,  # s; four stand-in calls
    )
    return proc, log.read_text().splitlines() if log.exists() else []


def test_every_import_runs_in_order(tmp_path: Path) -> None:
    proc, calls = _run(tmp_path, failing="none")
    assert proc.returncode == 0, proc.stderr
    assert calls == [
        "manage.py import_lectures",
        "manage.py import_quizzes",
        "manage.py sync_problems",
        "manage.py rerender_announcements",  # last: announcements refresh, nothing imports
    ]


def test_a_failing_import_stops_the_script_with_its_error(tmp_path: Path) -> None:
    proc, calls = _run(tmp_path, failing="import_quizzes")
    assert proc.returncode != 0
    assert "ImportError: broken command" in proc.stderr
    assert calls[-1] == "manage.py import_quizzes"  # sync_problems never ran
