"""Must hold 2: the sandbox with real bubblewrap. Each hostile submission is graded for real, and
after each one a correct submission is graded normally (a crash must not poison the next job).

The hostile code reports what it observed by raising an exception whose text the runner returns
(runtime_error message), so every assertion is about behaviour seen inside the sandbox.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from gradinglab.runner import grade, pool, sandbox
from gradinglab.runner.result import validate
from gradinglab.runner.testing import problem_copy, problems_dir_override, solution

# Tight limits keep the hostile cases fast: CPU s, wall s, MiB of address space, bytes of output,
# MiB of job dir.
TEST_LIMITS = {
    "cpu_seconds": 4,
    "wall_seconds": 8,
    "memory_mb": 1536,
    "output_bytes": 1024 * 1024,
    "processes": 64,
    "job_dir_mb": 64,
}
SECRET = "pdc-secret-value-7d1f"


@pytest.fixture(scope="module")
def tight(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    root = problem_copy(tmp_path_factory.mktemp("problems"), "vector-add", limits=TEST_LIMITS)
    with problems_dir_override(root):
        yield root


def run(body: str) -> dict:
    """Grade a vector_add whose body is `body` (indented by the caller's text)."""
    src = "import os, sys, socket, ctypes\nimport torch\n\n\ndef vector_add(x, y, out):\n" + body
    doc = grade(slug="vector-add", source=src, backend="triton", device="cpu")
    validate(doc)
    return doc


def assert_next_job_ok() -> None:
    doc = grade(
        slug="vector-add",
        source=solution("vector-add", "triton", "correct.py"),
        backend="triton",
        device="cpu",
    )
    assert doc["status"] == "accepted", doc["message"]


def test_network_connect_fails(tight: Path) -> None:
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    port = server.getsockname()[1]
    threading.Thread(target=lambda: server.accept(), daemon=True).start()
    socket.create_connection(("127.0.0.1", port), timeout=2).close()  # reachable from the host
    doc = run(
        "    try:\n"
        f"        socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        "    except OSError as e:\n"
        "        raise RuntimeError('NET-BLOCKED ' + repr(e))\n"
        "    raise RuntimeError('NET-OPEN')\n"
    )
    server.close()
    assert doc["status"] == "runtime_error" and "NET-BLOCKED" in doc["message"], doc["message"]
    assert_next_job_ok()


def test_reading_outside_the_job_dir_fails(tight: Path, tmp_path: Path) -> None:
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(SECRET)
    reference = sandbox.APP_DIR / "problems" / "vector-add" / "reference.py"
    targets = [
        str(secret_file),
        str(reference),
        "/etc/shadow",
        str(sandbox.CODE_ROOT / "pyproject.toml"),
    ]
    doc = run(
        f"    seen = []\n    for p in {targets!r}:\n"
        "        try:\n            seen.append((p, open(p).read()[:40]))\n"
        "        except OSError as e:\n            seen.append((p, 'DENIED'))\n"
        "    raise RuntimeError('READ ' + repr(seen))\n"
    )
    assert doc["status"] == "runtime_error"
    assert SECRET not in doc["message"] and "def make_inputs" not in doc["message"]
    assert doc["message"].count("DENIED") == len(targets), doc["message"]
    assert_next_job_ok()


def test_writing_outside_the_job_dir_fails(tight: Path) -> None:
    targets = [
        "/etc/pdc-probe",
        "/usr/pdc-probe",
        str(sandbox.RUNNER_DIR / "pdc-probe"),
        "/var/pdc-probe",
    ]
    doc = run(
        f"    res = []\n    for p in {targets!r}:\n"
        "        try:\n            open(p, 'w').write('x'); res.append(p + ':WROTE')\n"
        "        except OSError:\n            res.append(p + ':DENIED')\n"
        "    open('/run/job/mine.txt', 'w').write('ok')\n"
        "    raise RuntimeError('WRITE ' + ' '.join(res))\n"
    )
    assert doc["message"].count(":DENIED") == len(targets), doc["message"]
    assert ":WROTE" not in doc["message"]
    for p in targets:
        assert not Path(p).exists()
    assert_next_job_ok()


def test_environment_holds_no_parent_secret(tight: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PDC_TEST_SECRET", SECRET)
    pool.get_pool(None).shutdown()  # the next sandbox starts after the secret is set
    doc = run(
        "    env = dict(os.environ)\n"
        f"    leak = any({SECRET[:10]!r} + {SECRET[10:]!r} in v for v in env.values())\n"
        "    raise RuntimeError('ENV ' + repr(sorted(env)) + ' UID ' + str(os.getuid())"
        " + (' LEAK' if leak else ' CLEAN'))\n"
    )
    seen = doc["message"].split("RuntimeError: ", 1)[-1]  # the exception text, not the source line
    assert seen.startswith("ENV ") and seen.endswith(" CLEAN"), doc["message"]
    assert "PDC_TEST_SECRET" not in seen and "DJANGO" not in seen
    uid = int(seen.split(" UID ")[1].split()[0])
    assert uid != 0 and uid != os.getuid() or os.getuid() != 0  # never root inside
    assert uid == sandbox.NOBODY or uid >= sandbox.uids.SANDBOX_UID_BASE
    assert_next_job_ok()


# Forks until RLIMIT_NPROC stops it; the short sleep only spares the shared CI cores.
BOMB = (
    "    import time\n    while True:\n        try:\n            os.fork()\n"
    "        except OSError:\n            time.sleep(0.05)\n"
)


def test_fork_bomb_is_contained(tight: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """When the bomb's job ends, no process of its uid is left. Run as root, each sandbox has a
    uid of its own; other tests' sandboxes (other xdist workers, warm pool spares) are not this
    job's."""
    if os.geteuid() != 0:
        pytest.skip("one uid per job needs root; unprivileged sandboxes all run as nobody")
    uids: list[int] = []
    real_cleanup = sandbox.Sandbox.cleanup

    def cleanup(self: sandbox.Sandbox) -> None:
        real_cleanup(self)
        uids.append(self.uid)

    monkeypatch.setattr(sandbox.Sandbox, "cleanup", cleanup)
    doc = run(BOMB)
    assert doc["status"] in ("timeout", "runtime_error"), doc["message"]
    (uid,) = uids
    assert uid >= sandbox.uids.SANDBOX_UID_BASE
    left = _sandbox_processes(uid)
    assert not left, f"{len(left)} fork-bomb processes of uid {uid} survived the job"
    assert_next_job_ok()


def test_a_fork_bomb_does_not_starve_a_concurrent_job(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """sandbox.py's claim: as root each job has a uid of its own, and RLIMIT_NPROC counts per uid,
    so while one job holds all the processes its limit allows, another job running at the same
    time can still fork. The bomb gets 30 s of wall clock here so that the second job runs entirely
    inside its life: that job took 2.2 s from the bomb's filling up to its verdict on an idle
    2-core host, and `still_full` fails the test (rather than passing it) if it ever took longer.
    With 15 s, a loaded CI host once spent the bomb's whole life starting its interpreter, so it
    never filled up and the test failed on load alone."""
    if os.geteuid() != 0:
        pytest.skip("one uid per job needs root; unprivileged sandboxes all run as nobody")
    limits = {**TEST_LIMITS, "cpu_seconds": 10, "wall_seconds": 30}
    root = problem_copy(tmp_path, "vector-add", limits=limits)
    uids: list[int] = []
    real_start = sandbox.Sandbox.start

    def start(self: sandbox.Sandbox) -> sandbox.Sandbox:
        started = real_start(self)
        uids.append(self.uid)
        return started

    monkeypatch.setattr(sandbox.Sandbox, "start", start)
    pool.get_pool(None).shutdown()  # every sandbox from here is started (and its uid seen) here
    bomb: dict = {}
    with problems_dir_override(root):
        thread = threading.Thread(target=lambda: bomb.update(run(BOMB)), daemon=True)
        thread.start()
        bomb_uid = _wait_for_a_full_uid(uids, TEST_LIMITS["processes"], deadline_s=60)
        doc = run(
            "    import time\n    kids = []\n    for _ in range(8):\n        try:\n"
            "            pid = os.fork()\n        except OSError as e:\n"
            "            raise RuntimeError('FORK-FAILED ' + repr(e))\n"
            "        if pid == 0:\n            time.sleep(0.2)\n            os._exit(0)\n"
            "        kids.append(pid)\n    for pid in kids:\n        os.waitpid(pid, 0)\n"
            "    out.copy_(x + y)\n"
        )
        still_full = len(_sandbox_processes(bomb_uid)) >= TEST_LIMITS["processes"] - 4
        thread.join(timeout=60)
    assert still_full, "the bomb ended before the other job finished: nothing was shown"
    assert doc["status"] == "accepted", doc["message"]
    assert bomb["status"] in ("timeout", "runtime_error"), bomb.get("message")
    assert not _sandbox_processes(bomb_uid)
    assert_next_job_ok()


def _wait_for_a_full_uid(uids: list[int], processes: int, deadline_s: float) -> int:
    """The uid among `uids` that holds (nearly) `processes` live processes, once one does."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        for uid in list(uids):
            if len(_sandbox_processes(uid)) >= processes - 4:
                return uid
        time.sleep(0.1)
    raise AssertionError(f"no sandbox uid reached {processes} processes in {deadline_s} s")


def test_a_child_process_does_not_inherit_the_status_channel(tight: Path) -> None:
    """harness.main clears the channel's inheritable flag, so a process the job starts (nvcc,
    Triton's compiler, the submission's own) has no status channel to write to. posix_spawn
    keeps every inheritable fd (subprocess would close them anyway), so it shows the flag."""
    probe = (
        "import os, sys\nfd, ino = int(sys.argv[1]), int(sys.argv[2])\ntry:\n"
        "    same = os.fstat(fd).st_ino == ino\nexcept OSError:\n    same = False\n"
        "raise SystemExit(7 if same else 3)\n"
    )
    doc = run(
        "    import gradinglab.runner.harness as H\n"
        "    fd = H._status_fd\n    ino = os.fstat(fd).st_ino\n"
        f"    argv = [sys.executable, '-I', '-c', {probe!r}, str(fd), str(ino)]\n"
        "    pid = os.posix_spawn(sys.executable, argv, {})\n"
        "    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])\n"
        "    raise RuntimeError(f'CHILD-EXIT {code}')\n"
    )
    assert "CHILD-EXIT 3" in doc["message"], doc["message"]
    assert_next_job_ok()


def test_infinite_loop_is_a_timeout(tight: Path) -> None:
    doc = run("    while True:\n        pass\n")
    assert doc["status"] == "timeout" and "time limit" in doc["message"]
    assert doc["gradable"] is True
    assert_next_job_ok()


def test_sleeping_forever_hits_the_wall_clock(tight: Path) -> None:
    doc = run("    import time\n    time.sleep(3600)\n")
    assert doc["status"] == "timeout" and "wall clock" in doc["message"]
    assert_next_job_ok()


def test_100_mb_of_output_is_capped(tight: Path) -> None:
    doc = run("    line = 'x' * 1_000_000\n    for _ in range(100):\n        print(line)\n")
    assert doc["status"] == "runtime_error" and "output limit" in doc["message"]
    assert len(doc["log"]) <= 16_000
    assert_next_job_ok()


# The job dir is on the host's disk and RLIMIT_FSIZE caps one file only. Each writer stops at a
# bounded amount and then waits for the wall clock, so without the cap it is a timeout (never a
# full disk), and with it the job is stopped long before.
DISK_WRITER = (
    "    import time\n"
    "    block = b'x' * (16 * 1024 * 1024)\n"
    "    for i in range({files}):\n"
    "        with open(f'/run/job/fill-{{i}}', 'wb') as f:\n"
    "            f.write(block[: {size}])\n"
    "    time.sleep(3600)\n"
)


@pytest.mark.parametrize(
    ("files", "size"),
    [(16, 16 * 1024 * 1024), (sandbox.JOB_DIR_ENTRIES + 100, 0)],
    ids=["256-MiB-in-16-MiB-files", "too-many-empty-files"],
)
def test_filling_the_job_dir_is_stopped(tight: Path, files: int, size: int) -> None:
    doc = run(DISK_WRITER.format(files=files, size=size))
    assert doc["status"] == "runtime_error" and "disk limit" in doc["message"], doc["message"]
    assert_next_job_ok()


def test_disk_space_reserved_without_writing_is_refused(tight: Path) -> None:
    """fallocate reserved 3 GiB of the host's disk in one call (KEEP_SIZE: no RLIMIT_FSIZE) before
    the next poll of the job dir; io_uring and XFS's preallocation ioctls can do the same.
    seccomp.py refuses all of them: errno 95 (EOPNOTSUPP), 38 (ENOSYS), 1 (EPERM)."""
    doc = run(
        "    libc = ctypes.CDLL(None, use_errno=True)\n"
        "    fd = os.open('/run/job/big', os.O_RDWR | os.O_CREAT, 0o600)\n"
        "    def errno_of(rc):\n"
        "        return ctypes.get_errno() if rc == -1 else 0\n"
        "    n = ctypes.c_long\n"
        "    seen = [errno_of(libc.fallocate(fd, 1, n(0), n(3 << 30))),\n"
        "            errno_of(libc.fallocate(fd, 0, n(0), n(1 << 20))),\n"
        "            errno_of(libc.syscall(425, 8, ctypes.create_string_buffer(120))),\n"
        "            errno_of(libc.ioctl(fd, ctypes.c_ulong(0x4030582A), ctypes.create_string_buffer(64)))]\n"
        "    raise RuntimeError(f'RESERVED {seen} {os.fstat(fd).st_blocks * 512} bytes')\n"
    )
    assert "RESERVED [95, 95, 38, 1] 0 bytes" in doc["message"], doc["message"]


def _open_fds() -> set[str]:
    return set(os.listdir("/proc/self/fd"))


@pytest.mark.parametrize("fails", ["filter", "command"])
def test_a_sandbox_that_fails_to_start_keeps_no_descriptor(
    fails: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pool refills for days: the status pipe and the seccomp program's memfd are closed on
    every failure, and a host error is a start error (whose cleanup gives the uid back)."""
    from gradinglab.runner import seccomp

    def broken(*_args: object) -> None:
        raise OSError(24, "Too many open files")

    if fails == "filter":
        monkeypatch.setattr(seccomp, "filter_fd", broken)
    else:
        monkeypatch.setattr(sandbox.Sandbox, "command", broken)
    box = sandbox.Sandbox(limits=sandbox.Limits())
    before = _open_fds()
    try:
        with pytest.raises(sandbox.SandboxStartError, match="Too many open files"):
            box.start()
    finally:
        box.cleanup()  # the pool's way: gives back the uid lease (an fd as root)
    assert _open_fds() <= before


def test_a_proc_too_big_to_read_in_one_poll_is_over(monkeypatch: pytest.MonkeyPatch) -> None:
    """A job can make its /proc huge (65 530 mappings under long paths per process: a 94 MB maps
    file, minutes a poll). Past a poll's budget the measurement is None (over), not slow. Here
    the host's own /proc stands in for a sandbox's, with a budget of 1 KiB of maps."""
    monkeypatch.setattr(sandbox, "PROC_MAPS_BYTES", 1024)
    dev = os.stat("/tmp").st_dev
    assert sandbox.held_deleted_bytes(os.getpid(), dev, os.geteuid()) is None
    monkeypatch.setattr(sandbox, "PROC_MAPS_BYTES", 64 * 1024 * 1024)
    monkeypatch.setattr(sandbox, "PROC_FD_ENTRIES", 1)
    assert sandbox.held_deleted_bytes(os.getpid(), dev, os.geteuid()) is None


def test_a_measurement_that_fails_stops_the_job(
    tight: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception in the watcher (a MemoryError reading a hostile /proc) ended its thread and
    with it the cap, unseen: it now counts as over."""

    def fails(*args: object) -> bool:
        raise MemoryError

    monkeypatch.setattr(sandbox, "job_dir_over", fails)
    doc = run("    import time\n    time.sleep(3600)\n")
    assert doc["status"] == "runtime_error" and "disk limit" in doc["message"], doc["message"]


def test_job_dir_usage_counts_allocated_bytes_and_entries(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "f").write_bytes(b"x" * 1_000_000)
    with open(tmp_path / "sparse", "wb") as f:
        f.truncate(1 << 30)  # 1 GiB long, nothing stored
    used = sandbox.job_dir_usage(tmp_path)
    assert used is not None and 1_000_000 <= used < 2_000_000
    assert not sandbox.job_dir_over(tmp_path, 2_000_000)
    assert sandbox.job_dir_over(tmp_path, 500_000)


# Writes 8 files of 4 MiB into /dev/shm and one into /dev, and says what each got.
DEV_WRITER = """
import errno
for path in ('/dev/shm/fill', '/dev/fill'):
    try:
        for i in range(8):
            with open(f'{path}-{i}', 'wb') as f:
                f.write(b'x' * (4 * 1024 * 1024))
        print(path, 'wrote')
    except OSError as e:
        print(path, errno.errorcode[e.errno])
"""


def test_dev_and_dev_shm_are_not_unbounded_memory(tmp_path: Path) -> None:
    """/dev and /dev/shm are tmpfs, RAM that RLIMIT_AS does not count. An unprivileged sandbox
    owns them (a root parent's jobs run as another uid and cannot write there), and wrote 32 MiB
    into each, up to half the host's RAM: /dev/shm is now capped at tmp_mb, /dev read-only. Run
    here with the unprivileged command line (bwrap as this user maps it to nobody)."""
    argv = sandbox.bwrap_argv(
        job_dir=tmp_path,
        limits=sandbox.Limits(tmp_mb=16),
        gpu_minor=None,
        env=sandbox.sandbox_env(gpu=False),
        as_root=False,
    )
    said = subprocess.run(
        [*argv, sys.executable, "-I", "-S", "-c", DEV_WRITER],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert said.stdout.split("\n")[:2] == ["/dev/shm/fill ENOSPC", "/dev/fill EROFS"], said


# Files written, then unlinked while still open or mapped: no directory holds them, yet they stay
# on the disk until the job ends. 16 x 16 MiB, one in the directory at a time (under the cap).
UNLINKED_OPEN = (
    "    import time\n"
    "    block, held = b'x' * (16 * 1024 * 1024), []\n"
    "    for i in range(16):\n"
    "        f = open(f'/run/job/gone-{i}', 'wb')\n"
    "        f.write(block)\n"
    "        f.flush()\n"
    "        os.unlink(f'/run/job/gone-{i}')\n"
    "        held.append(f)\n"
    "    time.sleep(3600)\n"
)
# The same, each file mapped and its fd closed before the unlink, so that only the mapping holds
# it. libc's mmap, since Python's mmap.mmap keeps a duplicate of the fd open.
UNLINKED_MAPPED = (
    "    import time, mmap\n"
    "    libc = ctypes.CDLL(None, use_errno=True)\n"
    "    libc.mmap.restype = ctypes.c_void_p\n"
    "    libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int,"
    " ctypes.c_int, ctypes.c_long]\n"
    "    block = b'x' * (16 * 1024 * 1024)\n"
    "    for i in range(16):\n"
    "        with open(f'/run/job/gone-{i}', 'w+b') as f:\n"
    "            f.write(block)\n"
    "            f.flush()\n"
    "            addr = libc.mmap(None, len(block), mmap.PROT_READ, mmap.MAP_SHARED, f.fileno(), 0)\n"
    "        if addr in (None, ctypes.c_void_p(-1).value):\n"
    "            raise RuntimeError('MMAP-FAILED ' + str(ctypes.get_errno()))\n"
    "        os.unlink(f'/run/job/gone-{i}')\n"
    "    time.sleep(3600)\n"
)
# The same files held by a process in a pid namespace nested in the sandbox's (CLONE_NEWUSER |
# CLONE_NEWPID: an unprivileged user namespace allows it where bwrap runs without
# --disable-userns, as it does for a root parent).
NESTED = (
    "    import time\n"
    "    if ctypes.CDLL(None, use_errno=True).unshare(0x10000000 | 0x20000000):\n"
    "        raise RuntimeError('UNSHARE-FAILED ' + str(ctypes.get_errno()))\n"
    "    if os.fork() == 0:\n" + textwrap.indent(UNLINKED_OPEN, "    ") + "    time.sleep(3600)\n"
)


@pytest.mark.parametrize(
    "body",
    [UNLINKED_OPEN, UNLINKED_MAPPED],
    ids=["unlinked-while-open", "unlinked-while-mapped"],
)
def test_files_unlinked_but_held_count_toward_the_cap(tight: Path, body: str) -> None:
    doc = run(body)
    assert doc["status"] == "runtime_error" and "disk limit" in doc["message"], doc["message"]
    assert_next_job_ok()


def test_files_held_in_a_nested_pid_namespace_count_toward_the_cap(tight: Path) -> None:
    doc = run(NESTED)
    if "UNSHARE-FAILED 1" in doc["message"]:
        pytest.skip("no user namespace to nest (seccomp.py, --disable-userns): nothing can nest")
    assert doc["status"] == "runtime_error" and "disk limit" in doc["message"], doc["message"]
    assert_next_job_ok()


# Six children each rename one level (every sixth) of a 36-level chain of directories to fresh
# names in a loop, then the job writes 112 MiB at the bottom through a directory fd (which renames
# do not affect): a name the walk has listed is gone microseconds later, the walk needs the same
# names for the whole way down, and some renamer is running while it goes. Without the restart
# rule 4 of 4 runs here ended as a timeout; with 3 renamers the walk still saw the data in roughly
# 1 walk in 10 to 20, and the job was stopped.
RENAMER = (
    "    import time\n"
    "    levels = [f'n{k}' for k in range(36)]\n"
    "    os.makedirs('/run/job/' + '/'.join(levels))\n"
    "    bottom = os.open('/run/job/' + '/'.join(levels), os.O_RDONLY)\n"
    "    tops = range(0, 36, 6)\n"
    "    aboves = [os.open('/'.join(['/run/job', *levels[:k]]), os.O_RDONLY) for k in tops]\n"
    "    for k, above in zip(tops, aboves):\n"
    "        if os.fork() == 0:\n"
    "            i, name = 0, levels[k]\n"
    "            while True:\n"
    "                i += 1\n"
    "                os.rename(name, f'r{i}', src_dir_fd=above, dst_dir_fd=above)\n"
    "                name = f'r{i}'\n"
    "    block = b'x' * (16 * 1024 * 1024)\n"
    "    for i in range(7):\n"
    "        fd = os.open(f'f{i}', os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=bottom)\n"
    "        os.write(fd, block)\n"
    "        os.close(fd)\n"
    "    time.sleep(3600)\n"
)


def test_a_directory_renamed_in_a_loop_is_still_measured(tmp_path: Path) -> None:
    """The loop must last to the wall clock: a job that ends by itself (at its CPU limit) gets the
    final measurement of a tree nothing changes any more, so the CPU limit is above the wall
    clock here, and without the restart rule the job is a timeout."""
    root = problem_copy(tmp_path, "vector-add", limits={**TEST_LIMITS, "cpu_seconds": 30})
    with problems_dir_override(root):
        doc = run(RENAMER)
    assert doc["status"] == "runtime_error" and "disk limit" in doc["message"], doc["message"]
    assert_next_job_ok()


class _Listing(list):
    """A finished directory listing that os.scandir's callers can use as a context manager."""

    def __enter__(self) -> _Listing:
        return self

    def __exit__(self, *exc: object) -> None:
        return None


@pytest.mark.parametrize(("renames", "counted"), [(3, True), (4, False)])
def test_the_walk_restarts_when_the_tree_changes_under_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, renames: int, counted: bool
) -> None:
    """Each listing of the top directory is followed by a rename of the directory it listed, as a
    job renaming in a loop does: the walk starts again, up to WALK_RESTARTS times, then the job
    dir counts as over its cap (None)."""
    (tmp_path / "d0").mkdir()
    (tmp_path / "d0" / "f").write_bytes(b"x" * 1_000_000)
    real_scandir, left = os.scandir, [renames]

    def scandir(path: str) -> _Listing:
        with real_scandir(path) as listing:
            entries = _Listing(listing)
        if path == str(tmp_path) and left[0]:
            left[0] -= 1
            (here,) = [e.name for e in entries if e.is_dir()]
            os.rename(tmp_path / here, tmp_path / f"d{int(here[1:]) + 1}")
        return entries

    monkeypatch.setattr(sandbox.os, "scandir", scandir)
    used = sandbox.job_dir_usage(tmp_path)
    assert sandbox.WALK_RESTARTS == 3
    if counted:
        assert used is not None and used >= 1_000_000
    else:
        assert used is None


def test_memory_hog_is_memory_limit(tight: Path) -> None:
    doc = run("    hog = torch.ones(4 * 1024**3, dtype=torch.uint8)\n")
    assert doc["status"] == "memory_limit", doc["message"]
    assert_next_job_ok()


def test_python_memory_hog_is_memory_limit(tight: Path) -> None:
    # bytes(n) comes from calloc, so no page is touched and RLIMIT_AS ends it at once; bytearray(n)
    # zero-fills each page, ~3.7 s of CPU here for 1.5 GiB, which raced the 4 s CPU limit under load.
    doc = run("    hog = [bytes(64 * 1024 * 1024) for _ in range(100)]\n")
    assert doc["status"] == "memory_limit", doc["message"]
    assert_next_job_ok()


def test_segfault_is_runtime_error(tight: Path) -> None:
    doc = run("    ctypes.string_at(0)\n")
    assert doc["status"] == "runtime_error" and "SIGSEGV" in doc["message"], doc["message"]
    assert_next_job_ok()


def test_exit_before_finishing_is_runtime_error(tight: Path) -> None:
    doc = run("    os._exit(0)\n")
    assert doc["status"] == "runtime_error" and "exited before finishing" in doc["message"]
    assert_next_job_ok()


def test_sandbox_that_cannot_start_is_infrastructure_error(
    tight: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pool.get_pool(None).shutdown()
    monkeypatch.setattr(sandbox, "BWRAP", "/bin/false")  # exists, fails before the harness runs
    doc = grade(
        slug="vector-add",
        source=solution("vector-add", "triton", "correct.py"),
        backend="triton",
        device="cpu",
    )
    validate(doc)
    assert doc["status"] == "infrastructure_error" and doc["gradable"] is False
    monkeypatch.undo()
    assert_next_job_ok()


def _sandbox_processes(uid: int) -> list[int]:
    """The live processes (zombies excluded: they hold nothing but a pid) owned by `uid`."""
    pids = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if entry.stat().st_uid != uid:
                    continue
                state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
            except OSError:
                continue
            if state != "Z":
                pids.append(int(entry.name))
    return pids


def test_closing_the_status_channel_and_hanging_is_a_timeout(tight: Path) -> None:
    """The protocol fd is in reach of the submission; closing it must not confuse the verdict."""
    doc = run(
        "    import time\n    for fd in [int(n) for n in os.listdir('/proc/self/fd') if int(n) > 2]:\n"
        "        try:\n            os.close(fd)\n"
        "        except OSError:\n            pass\n    time.sleep(3600)\n"
    )
    assert doc["status"] == "timeout", doc["message"]
    assert_next_job_ok()
