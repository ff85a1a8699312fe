"""docs/operations.md's backup and restore, run against the PostgreSQL that `make test` starts:
scripts/backup.sh dumps this test's database, scripts/restore.sh puts it into a fresh one and
checks it; the restored grade and its audit trail are the ones written before the backup."""

from __future__ import annotations

import os
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import psycopg
import pytest
from django.db import connection

from gradebook.models import GradeEvent
from gradebook.services import grade_item_ensure, grade_record

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.django_db(transaction=True)  # pg_dump sees committed rows only


def _url(name: str) -> str:
    s = connection.settings_dict
    return f"postgres://{s['USER']}@{s['HOST']}:{s['PORT']}/{name}"


def test_backup_then_restore_into_an_empty_database(student_a, tmp_path: Path) -> None:
    if connection.vendor != "postgresql":
        pytest.fail("needs the PostgreSQL that `make test` starts")
    item = grade_item_ensure(key="lab:backup", title="备份演练", kind="lab", max_points=10)
    grade_record(student=student_a, item=item, points=Decimal("7.5"), source="lab")
    events = GradeEvent.objects.filter(grade__item=item).count()
    env = os.environ | {"DATABASE_URL": _url(connection.settings_dict["NAME"])}
    dump = subprocess.run(
        ["scripts/backup.sh", str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True,
        timeout=120, check=True,
    ).stdout.strip()  # fmt: skip
    assert Path(dump).is_file() and Path(dump + ".sha256").is_file()

    scratch = f"restore_drill_{os.getpid()}"
    admin = psycopg.connect(_url("postgres"), autocommit=True)
    admin.execute(f'CREATE DATABASE "{scratch}"')
    try:
        restored = subprocess.run(
            ["scripts/restore.sh", dump, _url(scratch)], cwd=ROOT,
            env=os.environ | {"PYTHON": sys.executable}, capture_output=True, text=True,
            timeout=180,
        )  # fmt: skip
        assert restored.returncode == 0, restored.stdout + restored.stderr
        assert "restored:" in restored.stdout and "'grades': 1" in restored.stdout
        with psycopg.connect(_url(scratch)) as db:
            points = db.execute(
                "SELECT g.points FROM gradebook_grade g JOIN gradebook_gradeitem i"
                " ON i.id = g.item_id WHERE i.key = 'lab:backup'"
            ).fetchone()
            audit = db.execute("SELECT count(*) FROM gradebook_gradeevent").fetchone()
        assert points == (Decimal("7.50"),) and audit == (events,)
        # A second restore into the now full database is refused, not merged.
        again = subprocess.run(
            ["scripts/restore.sh", dump, _url(scratch)], cwd=ROOT, capture_output=True,
            text=True, timeout=60,
        )  # fmt: skip
        assert again.returncode == 2 and "already has" in again.stderr
    finally:
        admin.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        admin.close()
