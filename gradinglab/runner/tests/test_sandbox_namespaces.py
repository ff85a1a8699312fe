"""What a submission can reach of the host through the kernel's namespaces, seen from inside a real
bubblewrap sandbox: no process outside its own pid namespace (sandbox.bwrap_argv's
--unshare-pid; test_sandbox_view's walk allows /proc without looking in it), no host socket,
including the abstract unix ones that a filesystem view cannot hide (--unshare-net;
test_sandbox.test_network_connect_fails tries TCP only), and no writable mount outside the few the
job may write (--remount-ro /: as root the job's uid could not write the root-owned view anyway,
so test_sandbox's write test passes with or without it), and no memory of its own mounting (a
user namespace nested in the sandbox's, refused by seccomp.py).

The submission reports what it saw in its exception's text, as in test_sandbox.
"""

from __future__ import annotations

import os
import secrets
import socket

import pytest

from gradinglab.runner import sandbox
from gradinglab.runner.tests.test_sandbox import run, tight  # noqa: F401  (tight: the fixture)

pytestmark = pytest.mark.usefixtures("tight")  # test_sandbox's problem copy with tight limits


def seen_inside(body: str) -> str:
    """The text a vector_add whose body is `body` raised, graded in a real sandbox."""
    doc = run(body)
    assert doc["status"] == "runtime_error", doc["message"]
    return doc["message"].rsplit("RuntimeError: ", 1)[-1]


def test_the_job_sees_and_signals_no_process_outside_its_sandbox() -> None:
    """Inside: pid 1 (bwrap) and the harness, nothing else. The runner's own pid (this test
    process, the sandbox's parent) is not there to read or signal."""
    said = seen_inside(
        "    pids = sorted(int(p) for p in os.listdir('/proc') if p.isdigit())\n"
        "    try:\n"
        f"        os.kill({os.getpid()}, 0)\n"
        "        sig = 'DELIVERED'\n"
        "    except OSError as e:\n"
        "        sig = type(e).__name__\n"
        "    raise RuntimeError(f'PIDS {pids} SIGNAL {sig}')\n"
    )
    pids = [int(p) for p in said.split("PIDS [", 1)[1].split("]", 1)[0].split(", ")]
    assert len(pids) <= 3 and os.getpid() not in pids, said
    assert said.endswith("SIGNAL ProcessLookupError"), said


def test_a_host_abstract_unix_socket_is_unreachable() -> None:
    """Abstract unix sockets have no path in any filesystem: only the network namespace hides
    them (a host's D-Bus, containerd and X11 listen on such names)."""
    name = f"\0pdc-probe-{secrets.token_hex(6)}"
    server = socket.socket(socket.AF_UNIX)
    server.bind(name)
    server.listen(4)
    try:
        probe = socket.socket(socket.AF_UNIX)
        probe.connect(name)  # reachable from the host
        probe.close()
        said = seen_inside(
            "    s = socket.socket(socket.AF_UNIX)\n"
            "    try:\n"
            f"        s.connect({name!r})\n"
            "    except OSError as e:\n"
            "        raise RuntimeError('UNIX-BLOCKED ' + type(e).__name__)\n"
            "    raise RuntimeError('UNIX-OPEN')\n"
        )
    finally:
        server.close()
    assert said == "UNIX-BLOCKED ConnectionRefusedError", said


# Mounts the job may write: its private /tmp and /dev/shm tmpfs (sized), the job dir, its own
# /proc and /dev/pts, and the device nodes bound into the read-only /dev (/dev/null and the like).
WRITABLE = {"/tmp", "/dev/shm", sandbox.JOB_MOUNT, "/proc", "/dev/pts"}


def test_every_other_mount_of_the_view_is_read_only() -> None:
    said = seen_inside(
        "    rw = []\n"
        "    for line in open('/proc/self/mountinfo'):\n"
        "        f = line.split()\n"
        "        if 'rw' in f[5].split(','):\n"
        "            rw.append(f[4])\n"
        "    raise RuntimeError('RW ' + ' '.join(rw))\n"
    )
    assert said.startswith("RW "), said
    writable = set(said[3:].split())
    nodes = {m for m in writable if m.startswith("/dev/") and m.count("/") == 2}
    assert writable - nodes - WRITABLE == set(), said
    assert {"/tmp", sandbox.JOB_MOUNT} <= writable, said  # the parse saw the mounts


# A tmpfs of the job's own, mounted in a user and mount namespace nested in the sandbox's, then
# filled past the sandbox's /tmp size (tmp_mb, 256 MiB) in files under RLIMIT_FSIZE.
OWN_TMPFS = (
    "    import ctypes\n"
    "    libc = ctypes.CDLL(None, use_errno=True)\n"
    "    uid, gid = os.getuid(), os.getgid()\n"
    "    if libc.unshare(0x10000000 | 0x00020000):\n"  # CLONE_NEWUSER | CLONE_NEWNS
    "        raise RuntimeError('UNSHARE-REFUSED ' + str(ctypes.get_errno()))\n"
    "    open('/proc/self/setgroups', 'w').write('deny')\n"
    "    open('/proc/self/uid_map', 'w').write(f'0 {uid} 1')\n"
    "    open('/proc/self/gid_map', 'w').write(f'0 {gid} 1')\n"
    "    if libc.mount(b'none', b'/tmp', b'tmpfs', 0, None):\n"
    "        raise RuntimeError('MOUNT-REFUSED ' + str(ctypes.get_errno()))\n"
    "    block = b'x' * (32 << 20)\n"
    "    for i in range(10):\n"
    "        with open(f'/tmp/fill-{i}', 'wb') as f:\n"
    "            f.write(block)\n"
    "    size = os.statvfs('/tmp').f_blocks * os.statvfs('/tmp').f_frsize >> 20\n"
    "    raise RuntimeError(f'OWN-TMPFS held 320 MiB of {size} MiB')\n"
)


def test_the_job_cannot_mount_memory_of_its_own() -> None:
    """Without seccomp.py's user-namespace rule a root parent's job held 320 MiB of a tmpfs of
    12 GiB (half the host's RAM) that it mounted itself: bwrap's --disable-userns needs
    --unshare-user, which a root parent does not use. An unprivileged parent's bwrap refuses it
    too (--disable-userns)."""
    said = seen_inside(OWN_TMPFS)
    assert said.startswith(("UNSHARE-REFUSED", "MOUNT-REFUSED")), said
