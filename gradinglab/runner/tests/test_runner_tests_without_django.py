"""A GPU worker host installs requirements/worker.txt: no Django. The runner's own tests (the GPU
module that bench/gpu_check.sh runs there among them) must run on it; the repository's root
conftest has an autouse fixture that reset Django's language and failed every test's setup there."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
# Django and the web side made unimportable, as on a worker host; pytest-django switched off.
_WITHOUT_DJANGO = (
    "import sys\n"
    "for name in ('django', 'rest_framework', 'celery', 'kombu', 'psycopg', 'pdcsite'):\n"
    "    sys.modules[name] = None\n"
    "import pytest\n"
    "sys.exit(pytest.main(sys.argv[1:]))\n"
)


def test_runner_tests_run_where_django_is_not_installed() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _WITHOUT_DJANGO, "gradinglab/runner/tests/test_floors.py", "-q"]
        + ["-p", "no:django", "-p", "no:xdist", "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,  # seconds: one small runner test file on a busy 2-core machine
    )
    assert done.returncode == 0, done.stdout[-3000:]
    assert " passed" in done.stdout and "error" not in done.stdout.lower()
