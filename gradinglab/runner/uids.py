"""Sandbox uids, run as root: each live sandbox on the host has a uid that no other one has.

RLIMIT_NPROC counts per uid, and processes of one uid may signal and ptrace each other and open
each other's files wherever they can reach them, so two sandboxes must never run as one uid at
once, whichever processes started them. (A uid made of the pid and a counter repeated across
processes: the 65th sandbox of pid p had the first uid of pid p + 1.)

A uid is taken by holding an exclusive flock(2) on its lock file in LOCK_DIR, a directory that only
root may write. The kernel keeps a flock for as long as its open file description exists, so the
lease ends when release() closes it or when the holding process dies, however it dies. What holds:

- while a lease is held, no acquire() with the same directory, in any process, returns its uid;
- the sandbox gives its lease back (Sandbox.cleanup) only after its bwrap was killed and reaped,
  its job dir removed, and no process on the host has the uid, zombies included (wait_gone); a
  process still there after REAP_WAIT_S keeps the lease taken until the holder exits;
- a process forked while holding a lease holds it too, until it exits or closes its copy (the
  descriptor is close-on-exec, so bwrap and other programs it starts never hold it);
- runners in separate containers share the kernel's uids but not each other's /run: give them one
  shared directory (PDC_SANDBOX_UID_DIR), or each container allocates on its own.
"""

from __future__ import annotations

import fcntl
import os
import random
import stat
import time
from pathlib import Path

LOCK_DIR = Path(os.environ.get("PDC_SANDBOX_UID_DIR", "/run/pdc-sandbox-uids"))
# 3e6+ is outside the usual system, user and subuid ranges; 4096 uids is more sandboxes than a host
# runs at once (a pool's spares and one job per worker process).
SANDBOX_UID_BASE = 3_000_000
SANDBOX_UID_COUNT = 4096
REAP_WAIT_S = 5.0  # s a killed sandbox's processes get to disappear before its uid is given back
_POLL_S = 0.01  # s between two looks at /proc while waiting


class UidUnavailable(RuntimeError):
    """No uid could be taken: every one is held, or the lock directory is unusable."""


class UidLease:
    """One held uid; release() gives it back (once)."""

    def __init__(self, uid: int, fd: int) -> None:
        self.uid = uid
        self._fd = fd

    def release(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # drops the flock, unless a forked child still has a copy
            self._fd = -1


# Where this process's next search starts: at random, then just past the uid it took last, so a
# uid given back is not the next one handed out (what looks for a sandbox's processes by uid
# right after its cleanup does not find the next sandbox's). Threads racing on it only move the
# start of a search; the flock alone decides who holds a uid.
_cursor = random.SystemRandom().randrange(1 << 30)


def acquire(
    lock_dir: Path = LOCK_DIR, base: int = SANDBOX_UID_BASE, count: int = SANDBOX_UID_COUNT
) -> UidLease:
    """A uid of [base, base + count) that no lease holds, now held by the caller; tried in order
    from this process's cursor, wrapping around."""
    global _cursor
    _check_dir(lock_dir)
    for step in range(count):
        uid = base + (_cursor + step) % count
        flags = os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW
        try:
            fd = os.open(lock_dir / str(uid), flags, 0o600)
        except OSError as exc:
            raise UidUnavailable(f"cannot open the lock of uid {uid}: {exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)  # another lease holds it
            continue
        _cursor += step + 1
        return UidLease(uid, fd)
    raise UidUnavailable(f"all {count} sandbox uids from {base} are held ({lock_dir})")


def _check_dir(lock_dir: Path) -> None:
    """Create the directory (0700); refuse one that another user could write, whose lock files
    someone else could hold or replace."""
    try:
        lock_dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        info = os.lstat(lock_dir)
    except OSError as exc:
        raise UidUnavailable(f"no uid lock directory {lock_dir}: {exc}") from exc
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o022:
        raise UidUnavailable(f"{lock_dir} is not a directory that only uid {os.geteuid()} writes")


def wait_gone(uid: int, timeout_s: float, proc: Path = Path("/proc")) -> bool:
    """Whether, within `timeout_s` seconds, no process has `uid` (uid_in_use)."""
    deadline = time.monotonic() + timeout_s
    while uid_in_use(uid, proc):
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL_S)
    return True


def uid_in_use(uid: int, proc: Path = Path("/proc")) -> bool:
    """Whether a process has `uid` as its real, effective, saved or file uid. Zombies count: until
    they are reaped they count toward their uid's RLIMIT_NPROC (the pid namespace's end reaps a
    sandbox's). Read from status, not from the owner of /proc/<pid>: that is root for a process
    that made itself non-dumpable."""
    for status in proc.glob("[0-9]*/status"):
        try:
            lines = status.read_text().splitlines()
        except OSError:
            continue  # it ended meanwhile
        uid_line = next((line for line in lines if line.startswith("Uid:")), "")
        if str(uid) in uid_line.split()[1:]:
            return True
    return False
