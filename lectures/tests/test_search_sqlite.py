"""Search works the same on SQLite (the embedded default) as on PostgreSQL (the test database).

Runs migrate, import and the searches in a child process with DATABASE_URL pointing at a scratch
SQLite file, so this test exercises SQLite whatever database the suite itself uses. One process, and
only the lectures app's migrations (it depends on auth alone): a migrate of every app on a fresh
database is about 13 CPU-seconds of Django's model-state rendering that search never reads, and each
more `manage.py` start is 1.5 s more. The whole migrate on SQLite is `make run`'s first step
(tests/test_make_run.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from django.conf import settings

QUERIES = {
    "归约": "3.1",
    "占用率": "2.21",
    "bank conflict": "3.4",
    "FlashAttention": "4.11",
    "ZeRO": "9.1.4",
}
SCRIPT = (
    "import json; from django.core.management import call_command as c; "
    "from django.db import connection; from lectures.search import search_sections as s; "
    "c('migrate', 'lectures', verbosity=0); c('import_lectures'); "
    f"hits = {{q: [h.section.number for h in s(q)[:3]] for q in {list(QUERIES)!r}}}; "
    "print(json.dumps({'vendor': connection.vendor, 'hits': hits}))"
)


def test_search_ranks_the_same_on_sqlite(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{tmp_path / 'search.sqlite3'}",
        "PDC_VAR_DIR": str(tmp_path),
        "DJANGO_ENV": "development",
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)

    def manage(*args: str) -> str:
        cmd = [sys.executable, "manage.py", *args]
        done = subprocess.run(
            cmd, cwd=settings.BASE_DIR, env=env, capture_output=True, text=True, timeout=300
        )
        assert done.returncode == 0, done.stderr[-2000:]
        return done.stdout

    out = json.loads(manage("shell", "-c", SCRIPT).strip().splitlines()[-1])
    assert out["vendor"] == "sqlite"
    assert {q: hits[0] for q, hits in out["hits"].items()} == QUERIES
