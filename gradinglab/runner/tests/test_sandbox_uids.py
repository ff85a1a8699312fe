"""uids.py's claims: while a lease is held no other one, in this process or another, gets its uid;
a released uid (or one whose holder died) is taken again; with every uid held, acquire fails
instead of sharing one. A uid made of the pid and a counter (before uids.py) fails the first
two: it never runs out, and with 8 uids every pid starts at the same one."""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gradinglab.runner import pool, uids
from gradinglab.runner.sandbox import CODE_ROOT, Limits, Sandbox, SandboxStartError

BASE = 5_000_000  # any range: the allocator never sets a uid, it only hands numbers out
COUNT = 8

HOLDER = """
import sys
from pathlib import Path
from gradinglab.runner import pool, uids
leases = [uids.acquire(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])) for _ in range(3)]
print(" ".join(str(lease.uid) for lease in leases), flush=True)
sys.stdin.read()  # hold them until the test closes stdin or kills this process
"""


def take(lock_dir: Path, n: int) -> list[uids.UidLease]:
    return [uids.acquire(lock_dir, BASE, COUNT) for _ in range(n)]


def test_leases_in_one_process_differ_and_a_released_uid_is_taken_again(tmp_path: Path) -> None:
    leases = take(tmp_path, COUNT)
    assert len({lease.uid for lease in leases}) == COUNT
    with pytest.raises(uids.UidUnavailable):  # every uid held: fail, never share one
        uids.acquire(tmp_path, BASE, COUNT)
    leases[3].release()
    assert uids.acquire(tmp_path, BASE, COUNT).uid == leases[3].uid


def test_two_processes_never_hold_one_uid_and_a_dead_holders_uids_come_back(
    tmp_path: Path,
) -> None:
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(tmp_path), str(BASE), str(COUNT)],
        cwd=CODE_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout
        theirs = {int(uid) for uid in holder.stdout.readline().split()}
        assert len(theirs) == 3
        ours = take(tmp_path, COUNT - 3)
        assert not theirs & {lease.uid for lease in ours}
        with pytest.raises(uids.UidUnavailable):
            uids.acquire(tmp_path, BASE, COUNT)
    finally:
        holder.kill()  # SIGKILL: no release() runs; the kernel drops its locks
        holder.wait()
    assert {lease.uid for lease in take(tmp_path, 3)} == theirs


def test_a_lock_directory_that_others_may_write_is_refused(tmp_path: Path) -> None:
    tmp_path.chmod(0o777)
    with pytest.raises(uids.UidUnavailable, match="only uid"):
        uids.acquire(tmp_path, BASE, COUNT)


def test_uid_in_use_sees_the_processes_of_that_uid_only() -> None:
    assert uids.uid_in_use(os.getuid())  # this test's own process
    assert not uids.uid_in_use(BASE + COUNT)  # no process has it
    assert uids.wait_gone(BASE + COUNT, timeout_s=0.0)


def test_a_zombie_keeps_its_uid_in_use_until_reaped() -> None:
    """A zombie still counts toward its uid's RLIMIT_NPROC: its uid is not given back before."""
    if os.geteuid() != 0:
        pytest.skip("a process of another uid needs root")
    uid = BASE + COUNT + 1
    pid = os.fork()
    if pid == 0:
        os.setuid(uid)
        os._exit(0)
    try:
        deadline = time.monotonic() + 10
        while "\nState:\tZ" not in Path(f"/proc/{pid}/status").read_text():
            assert time.monotonic() < deadline, "the child did not exit"
            time.sleep(0.01)
        assert uids.uid_in_use(uid) and not uids.wait_gone(uid, timeout_s=0.1)
    finally:
        os.waitpid(pid, 0)
    assert not uids.uid_in_use(uid)


def test_no_free_uid_is_a_start_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Fails closed: before any job is sent, so the grader reports an infrastructure error."""
    if os.geteuid() != 0:
        pytest.skip("only a sandbox started as root takes a uid")

    def none_free() -> uids.UidLease:
        raise uids.UidUnavailable("all held")

    monkeypatch.setattr(uids, "acquire", none_free)
    box = Sandbox(limits=Limits(), base_dir=tmp_path, light=True)
    with pytest.raises(SandboxStartError, match="no sandbox uid"):
        box.start()
    assert box.proc is None
    box.cleanup()


def test_a_sandbox_holds_its_uid_until_cleanup(tmp_path: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("only a sandbox started as root takes a uid")
    box = Sandbox(limits=Limits(), base_dir=tmp_path, light=True)
    try:
        box.start().wait_ready()
        assert uids.SANDBOX_UID_BASE <= box.uid < uids.SANDBOX_UID_BASE + uids.SANDBOX_UID_COUNT
        assert not _free(box.uid)
    finally:
        box.cleanup()
    assert _free(box.uid) and not uids.uid_in_use(box.uid)


def _free(uid: int) -> bool:
    """Whether no lease holds `uid` in the host's lock directory."""
    fd = os.open(uids.LOCK_DIR / str(uid), os.O_RDWR | os.O_CLOEXEC)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    finally:
        os.close(fd)
    return True


@pytest.mark.parametrize("fails", ["wait_ready", "set_memory_limit"])
def test_a_sandbox_that_fails_to_start_in_a_job_is_cleaned_up(
    monkeypatch: pytest.MonkeyPatch, fails: str
) -> None:
    """WarmPool.acquire starts one for the job when no spare fits; if it fails, or its job's
    memory cap cannot be set, its job dir and its uid are given back then, not left until this
    process exits."""
    cleaned: list[bool] = []

    class Failing:
        def __init__(self, **_kwargs: object) -> None:
            pass

        def start(self) -> Failing:
            return self

        def wait_ready(self) -> None:
            if fails == "wait_ready":
                raise SandboxStartError("harness did not start")

        def set_memory_limit(self, _mib: int) -> None:
            raise SandboxStartError("no cgroup")

        def cleanup(self) -> None:
            cleaned.append(True)

    monkeypatch.setattr(pool, "Sandbox", Failing)
    with pytest.raises(SandboxStartError):
        pool.WarmPool(size=0, gpu_index=None).acquire(Limits())
    assert cleaned == [True]


def test_a_job_dir_that_cannot_be_chowned_gives_its_uid_back(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """os.chown raised OSError, not a start error, so no caller cleaned up and the uid stayed held
    until the process exited (4096 such and every job failed)."""
    if os.geteuid() != 0:
        pytest.skip("only a sandbox started as root takes a uid")
    taken: list[uids.UidLease] = []
    real_acquire = uids.acquire

    def recorded() -> uids.UidLease:
        taken.append(real_acquire())
        return taken[-1]

    def refused(*_args: object) -> None:
        raise PermissionError("chown refused")

    monkeypatch.setattr(uids, "acquire", recorded)
    monkeypatch.setattr(os, "chown", refused)
    monkeypatch.setattr(pool, "Sandbox", lambda **kw: Sandbox(base_dir=tmp_path, **kw))
    with pytest.raises(SandboxStartError, match="cannot give the job dir"):
        pool.WarmPool(size=0, gpu_index=None, light=True).acquire(Limits())
    monkeypatch.undo()
    assert len(taken) == 1 and _free(taken[0].uid)
