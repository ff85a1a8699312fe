"""The root conftest's django_db_setup: xdist workers copy one migrated template database.

It must set up what pytest-django's own fixture sets up (serializing the database only for a test
that asks for serialized rollback: a dump of every row otherwise costs each run for nothing), and
a template left by a run that was killed must not be copied by a later run that gets the same
name (the name's run id is the controller's process id)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_the_database_is_serialized_only_for_a_test_that_asks(request, django_db_setup) -> None:
    from django.db import connection
    from pytest_django.fixtures import _get_databases_for_setup

    _, serialized = _get_databases_for_setup(request.session.items)
    assert hasattr(connection, "_test_serialized_contents") == ("default" in serialized)


@pytest.mark.slow
def test_a_dead_runs_template_is_not_copied(django_db_blocker) -> None:
    """A run id whose template is left over (here an empty database of that name): a new run with
    that id migrates its own rather than copying the old schema."""
    from django.db import connection

    run_id = f"r{os.getpid()}dead"
    template = f"test_pdclab_{run_id}_tpl"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    env["PDC_TEST_RUN_ID"] = run_id
    with django_db_blocker.unblock():
        with connection._nodb_cursor() as cursor:
            cursor.execute(f'DROP DATABASE IF EXISTS "{template}"')
            cursor.execute(f'CREATE DATABASE "{template}"')
        try:
            done = subprocess.run(
                [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "2",
                 "accounts/tests/test_pseudonym_lookalike.py::"
                 "test_chinese_and_full_width_nicknames_are_kept_in_their_nfkc_form"],
                cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
            )  # fmt: skip
        finally:
            with connection._nodb_cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{template}" WITH (FORCE)')
    assert done.returncode == 0, done.stdout[-3000:]
