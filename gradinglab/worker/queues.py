"""The one home of the grading queue names (Django-free: the worker, the settings and the web side
all import it). A job for hardware kind K goes to `grade-gpu-K`; CPU-only jobs to `grade-cpu`."""

from __future__ import annotations

import re

CPU_KIND = "cpu"
CPU_QUEUE = "grade-cpu"
# Web-side housekeeping (reaper, publishing checks, similarity runs) and the beat's periodic tasks,
# consumed by `celery -A pdcsite`.
DEFAULT_QUEUE = "default"
# A kind names a queue and appears in pages: lower-case letters and digits only (h200, rtx4090).
KIND_PATTERN = re.compile(r"^[a-z0-9]{1,24}$")


GPU_QUEUE_PREFIX = "grade-gpu-"


def queue_for(kind: str) -> str:
    """The queue of a hardware kind: "" or "cpu" -> grade-cpu, a GPU kind -> grade-gpu-<kind>."""
    return CPU_QUEUE if kind in ("", CPU_KIND) else f"{GPU_QUEUE_PREFIX}{kind}"


def kind_of(queue: str) -> str | None:
    """queue_for's inverse: the hardware kind a grading queue is for; None for another queue."""
    if queue == CPU_QUEUE:
        return CPU_KIND
    kind = queue.removeprefix(GPU_QUEUE_PREFIX)
    return kind if kind != queue and kind else None


def check_kind(kind: str) -> str:
    """A hardware kind as given (cpu or a GPU kind); ValueError for one that cannot name a queue."""
    if not KIND_PATTERN.match(kind):
        raise ValueError("a kind is cpu or lower-case letters and digits (h200, rtx4090)")
    return kind


def all_queues(gpu_kinds: list[str]) -> list[str]:
    """Every queue the web side may send to: housekeeping, CPU, and one per configured GPU kind."""
    return [DEFAULT_QUEUE, CPU_QUEUE, *[queue_for(kind) for kind in gpu_kinds]]
