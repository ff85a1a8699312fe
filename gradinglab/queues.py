"""The one home of the queue names (Django-free: the worker, the settings and the web side
all import it). A job for hardware kind K goes to `grade-gpu-K`; CPU-only jobs to `grade-cpu`."""

from __future__ import annotations

import re

CPU_QUEUE = "grade-cpu"
# Web-side housekeeping (reaper, publishing checks, similarity runs) and the beat's periodic tasks.
DEFAULT_QUEUE = "default"
# A kind names a queue and appears in pages: lower-case letters and digits only (h200, rtx4090).
KIND_PATTERN = re.compile(r"^[a-z0-9]{1,24}$")


def queue_for(kind: str) -> str:
    """The queue of a hardware kind: "" or "cpu" -> grade-cpu, a GPU kind -> grade-gpu-<kind>."""
    return CPU_QUEUE if kind in ("", "cpu") else f"grade-gpu-{kind}"
