"""uids.py's claim: a lease's descriptor is close-on-exec, so a program started while the lease is
held (bwrap, nvcc, nm) does not hold the uid after the lease is given back. posix_spawn keeps every
inheritable descriptor (subprocess would close them anyway), so it shows the flag itself."""

from __future__ import annotations

import fcntl
import os
import shutil
import time
from pathlib import Path

from gradinglab.runner import uids

BASE = 5_100_000  # any range: the allocator never sets a uid, it only hands numbers out


def free_within(path: Path, seconds: float) -> bool:
    """Whether nobody holds the lock file's flock within `seconds`. posix_spawn returns once the
    child has its new program, a moment before the kernel closes its close-on-exec descriptors."""
    fd = os.open(path, os.O_RDWR)
    try:
        deadline = time.monotonic() + seconds
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() > deadline:
                    return False
                time.sleep(0.01)
    finally:
        os.close(fd)


def test_a_program_started_while_a_lease_is_held_does_not_keep_the_uid(tmp_path: Path) -> None:
    lease = uids.acquire(tmp_path, BASE, 1)
    sleep = shutil.which("sleep") or "/bin/sleep"
    pid = os.posix_spawn(sleep, [sleep, "30"], {})
    try:
        lease.release()
        assert free_within(tmp_path / str(lease.uid), 5), "the program still holds the uid"
        assert uids.acquire(tmp_path, BASE, 1).uid == lease.uid
    finally:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
