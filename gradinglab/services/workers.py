"""Worker credentials and heartbeats."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from gradinglab.models import (
    WorkerNode,
    new_token,
    token_hash,
)
from pdcsite.storable import without_nul


@transaction.atomic
def worker_token_create(*, name: str, kind: str, device: str = "") -> str:
    """Create (or rotate) a worker credential; the raw token is shown once. `device` is the exact
    device model the web side computes floors for (blank: the fastest device of the kind)."""
    raw = new_token("wrk_")
    WorkerNode.objects.update_or_create(
        name=name,
        defaults={"kind": kind, "device": device, "token_hash": token_hash(raw), "active": True},
    )
    return raw


def worker_heartbeat(*, worker: WorkerNode, info: dict[str, Any]) -> None:
    clean = without_nul({str(k)[:40]: str(v)[:200] for k, v in list(info.items())[:20]})
    WorkerNode.objects.filter(pk=worker.pk).update(last_heartbeat_at=timezone.now(), info=clean)
