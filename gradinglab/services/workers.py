"""Worker credentials and heartbeats."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from gradinglab.models import (
    WorkerNode,
    new_token,
    token_hash,
)
from gradinglab.runner.floors import peak_for_worker
from gradinglab.worker.queues import CPU_KIND
from pdcsite.storable import storable


class WorkerSpecInvalid(ValueError):
    """A worker credential that could not grade: ``field`` is "kind" or "device"."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(message)
        self.field = field


def worker_kinds() -> list[str]:
    return [CPU_KIND, *settings.GPU_KINDS]


def worker_spec_check(*, kind: str, device: str) -> None:
    """A kind the queues serve, and a device whose peaks are known (the floors need them)."""
    if kind not in worker_kinds():
        raise WorkerSpecInvalid(
            "kind",
            _("未知的评测机类型 %(kind)s；可选：%(all)s")
            % {"kind": kind, "all": ", ".join(worker_kinds())},
        )
    if device and peak_for_worker(kind, device) is None:
        raise WorkerSpecInvalid(
            "device",
            _("不知道设备 %(device)s 的峰值（gradinglab/runner/devices.py）") % {"device": device},
        )


@transaction.atomic
def worker_token_create(*, name: str, kind: str, device: str = "") -> str:
    """Create (or rotate) a worker credential; the raw token is shown once. `device` is the exact
    device model the web side computes floors for (blank: the fastest device of the kind)."""
    worker_spec_check(kind=kind, device=device)
    raw = new_token("wrk_")
    WorkerNode.objects.update_or_create(
        name=name,
        defaults={"kind": kind, "device": device, "token_hash": token_hash(raw), "active": True},
    )
    return raw


def worker_heartbeat(*, worker: WorkerNode, info: dict[str, Any]) -> None:
    clean = storable({str(k)[:40]: str(v)[:200] for k, v in list(info.items())[:20]})
    WorkerNode.objects.filter(pk=worker.pk).update(last_heartbeat_at=timezone.now(), info=clean)
