"""cgroup v2 memory limit for GPU jobs (RLIMIT_AS cannot be used with CUDA).

Best effort by design: where no writable cgroup v2 hierarchy exists (e.g. a container without
delegation), `create` returns None and the job runs without a memory cap; the grader then notes
this in the document's log so a TA can see it.
"""

from __future__ import annotations

import os
import uuid
from pathlib import Path

CGROUP_ROOT = Path(os.environ.get("PDC_CGROUP_ROOT", "/sys/fs/cgroup"))


def _is_v2(root: Path) -> bool:
    return (root / "cgroup.controllers").is_file()


class JobCgroup:
    def __init__(self, path: Path):
        self.path = path

    @classmethod
    def create(cls, memory_mb: int) -> JobCgroup | None:
        parent = CGROUP_ROOT / "pdc-runner"
        try:
            if not _is_v2(CGROUP_ROOT):
                return None
            parent.mkdir(exist_ok=True)
            (parent / "cgroup.subtree_control").write_text("+memory")
            path = parent / f"job-{uuid.uuid4().hex[:12]}"
            path.mkdir()
            (path / "memory.max").write_text(str(memory_mb * 1024 * 1024))
            (path / "memory.swap.max").write_text("0")
            return cls(path)
        except OSError:
            return None

    def set_max(self, memory_mb: int) -> bool:
        """Set memory.max for the job now running here (MiB); False when the kernel refused."""
        try:
            (self.path / "memory.max").write_text(str(memory_mb * 1024 * 1024))
            return True
        except OSError:
            return False

    def add_tree(self, root_pid: int) -> bool:
        """Move a process and all its descendants (each with all its threads) into the cgroup.

        Called once the harness is ready, before any student code exists: whatever the student
        starts later is born inside the cgroup.
        """
        ok = True
        for pid in _descendants(root_pid):
            try:
                (self.path / "cgroup.procs").write_text(str(pid))
            except OSError:
                ok = False
        return ok

    def oom_killed(self) -> bool:
        try:
            for line in (self.path / "memory.events").read_text().splitlines():
                key, _, value = line.partition(" ")
                if key == "oom_kill" and int(value) > 0:
                    return True
        except OSError:
            pass
        return False

    def remove(self) -> None:
        try:
            self.path.rmdir()
        except OSError:
            pass  # still has processes for a moment; the kernel frees it when empty


def _descendants(root_pid: int) -> list[int]:
    seen, todo = [], [root_pid]
    while todo:
        pid = todo.pop()
        seen.append(pid)
        for task in Path(f"/proc/{pid}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except (OSError, ValueError):
                pass
    return list(dict.fromkeys(seen))
