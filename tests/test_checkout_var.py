"""Tests leave the checkout's var/ alone: a `make run` in the same checkout keeps working."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from gradinglab.worker.config import LOCAL_CREDENTIAL

CHECKOUT_CREDENTIAL = Path(__file__).resolve().parents[1] / "var" / LOCAL_CREDENTIAL


def _contents(path: Path) -> bytes | None:
    return path.read_bytes() if path.exists() else None


@pytest.mark.django_db
def test_sync_problems_in_development_writes_the_credential_into_the_runs_own_var(
    settings,
) -> None:
    """A bare `pytest` runs with DJANGO_ENV=development, where sync_problems (as `make run` calls
    it) makes sure of the local worker's credential: it must land in the test run's folder, not
    in the checkout's var/, whose credential belongs to the development database."""
    before = _contents(CHECKOUT_CREDENTIAL)
    settings.DJANGO_ENV = "development"
    call_command("sync_problems", stdout=io.StringIO())
    assert _contents(CHECKOUT_CREDENTIAL) == before
    assert (Path(settings.VAR_DIR) / LOCAL_CREDENTIAL).exists()
