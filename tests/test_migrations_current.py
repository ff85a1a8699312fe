"""Every model change ships with its migration: a field, option or primary-key type changed
without one would otherwise pass every test (they build the schema from the migrations) and
break the first `migrate` in production."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import call_command


@pytest.mark.django_db  # makemigrations reads the applied-migrations table
def test_models_and_migrations_agree() -> None:
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:  # --check exits 1 when a migration is missing
        raise AssertionError(f"models changed without a migration:\n{out.getvalue()}") from None
