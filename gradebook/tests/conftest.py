"""Gradebook test helpers: items with due dates relative to now, and posting raw scores."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import GradeItem, RegradeRequest
from gradebook.services import grade_item_ensure, grade_record


@pytest.fixture(autouse=True)
def _test_ref_kind(monkeypatch):
    """Refs "testref:<id>" stand for a student's own object in these tests, which have no lab
    submissions; the real kinds and their ownership checks: tests/test_regrade_refs.py."""
    from gradebook import refs

    monkeypatch.setitem(refs._CHECKS, "testref", lambda pk, student, item: True)


@pytest.fixture
def past_due() -> datetime:
    """A deadline three days ago (whole minutes so forms round-trip it)."""
    return (timezone.now() - timedelta(days=3)).replace(second=0, microsecond=0)


@pytest.fixture
def make_item(db):
    def _make(key: str, *, max_points: int = 10, **fields) -> GradeItem:
        kind = fields.pop(
            "kind", key.split(":")[0] if key.split(":")[0] in GradeItem.Kind.values else "other"
        )
        item = grade_item_ensure(
            key=key,
            title=fields.pop("title", key),
            kind=kind,
            max_points=Decimal(max_points),
            category=fields.pop("category", None),
            due_at=fields.pop("due_at", None),
        )
        if fields:
            GradeItem.objects.filter(pk=item.pk).update(**fields)
            item.refresh_from_db()
        return item

    return _make


@pytest.fixture
def stored_regrade(db):
    """A regrade request written as a row, past the service's checks of its ref: what an admin
    could type or an old row hold."""

    def _make(student, item, ref: str) -> RegradeRequest:
        return RegradeRequest.objects.create(
            student=student, item=item, ref=ref, message="请复核", created_at=timezone.now()
        )

    return _make


@pytest.fixture
def post():
    def _post(student, item, points, submitted_at=None, source: str = "lab"):
        return grade_record(
            student=student,
            item=item,
            points=Decimal(str(points)),
            source=source,
            submitted_at=submitted_at,
        )

    return _post
