"""One bubblewrap child per job: the only place the runner starts untrusted code.

The trusted parent builds the bwrap command line, owns the wall clock, reads the child's output in
chunks with a byte cap, and classifies how the child ended. The harness inside the sandbox
(`harness.py`) applies the per-job rlimits before it loads any student code.
"""

from __future__ import annotations

import json
import os
import select
import shutil
import signal
import stat
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import cgroups, devices, seccomp, uids
from .cuda_build import NVCC as NVCC_PATH

BWRAP = os.environ.get("PDC_BWRAP", "/usr/bin/bwrap")
PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
NOBODY = 65534  # uid/gid inside an unprivileged user namespace (Debian's nobody/nogroup)
# As root, each sandbox runs as an unassigned uid that no other live sandbox on the host has
# (uids.py says exactly what holds): RLIMIT_NPROC counts per uid, so a fork bomb in one job does
# not starve a concurrent job.

RUNNER_DIR = Path(__file__).resolve().parent  # gradinglab/runner
APP_DIR = RUNNER_DIR.parent  # gradinglab
CODE_ROOT = APP_DIR.parent  # the repository root: parent of the gradinglab package
JOB_MOUNT = "/run/job"  # where the job directory appears inside the sandbox (/run is a tmpfs)
READY_TIMEOUT_S = 120.0  # importing torch + triton on a loaded 2-core host takes ~2-10 s
CHUNK = 65536  # bytes per read of the child's output
LOG_KEEP = 64 * 1024  # bytes of output kept for the result log (head and tail)


@dataclass(frozen=True)
class Limits:
    """Per-job limits. Units are in the names; defaults fit the CPU path on small shapes.

    The rlimits (cpu, file size, open files, memory on the CPU path) hold per process: a process
    the job forks inherits them and counts its own use. What bounds the job as a whole is the
    wall clock, RLIMIT_NPROC (counted per uid), and on the GPU path the memory cgroup."""

    cpu_seconds: float = 60.0  # RLIMIT_CPU, s per process (harness: beyond its use at job start)
    wall_seconds: float = 120.0  # wall clock for the job, s, enforced by the trusted parent
    memory_mb: int = 2048  # CPU path: RLIMIT_AS, MiB; GPU path: cgroup memory.max, MiB
    file_size_mb: int = 64  # RLIMIT_FSIZE, MiB: largest file the job may write
    open_files: int = 256  # RLIMIT_NOFILE
    processes: int = 256  # RLIMIT_NPROC (threads count too); torch + nvcc need a few dozen
    output_bytes: int = 8 * 1024 * 1024  # stdout + stderr bytes before the job is killed
    tmp_mb: int = 256  # size of the private /tmp tmpfs, MiB
    job_dir_mb: int = 1024  # MiB the job dir may hold beyond 3 x the grader's inputs (job_dir_cap)
    compile_seconds: float = 60.0  # wall clock for nvcc inside the sandbox, s

    def merged(self, overrides: dict[str, Any] | None) -> Limits:
        known = {k: v for k, v in (overrides or {}).items() if k in asdict(self)}
        return Limits(**{**asdict(self), **known})


MIB = 1024 * 1024
JOB_DIR_ENTRIES = 10_000  # files and directories in a job dir; an honest job makes a few dozen
JOB_DIR_POLL_S = 0.25  # s between two measurements of the job dir while the job runs


def tensor_bytes(cases: list[dict[str, Any]]) -> int:
    """Bytes of every input and output tensor in job-side case records (tests or benchmark sets)."""
    total = 0
    for case in cases:
        for group in ("inputs", "outputs"):
            total += sum(t.numel() * t.element_size() for t in case.get(group, {}).values())
    return total


def gpu_memory_mb(base_mb: int, io_bytes: int) -> int:
    """cgroup memory.max of one GPU job, MiB: the problem's working memory (harness, torch, CUDA
    context, the student's host buffers) plus the job's tensors twice: once as loaded from the
    job files (benchmark sets are memory-mapped, so that copy is reclaimable page cache) and once
    as the snapshots written back for the trusted side."""
    return int(base_mb) + 2 * -(-int(io_bytes) // MIB)


class SandboxStartError(RuntimeError):
    """The sandbox could not be started or the harness died before it was ready."""


@dataclass
class Outcome:
    """How a job ended, as seen from the trusted side."""

    ended: str  # done | timeout | cpu_limit | output_limit | disk_limit | exited | signalled
    result: dict[str, Any] | None = None  # the harness's "done" message, if it sent one
    exit_code: int | None = None
    signal: int | None = None
    log: str = ""
    output_bytes: int = 0
    wall_s: float = 0.0
    oom_killed: bool = False
    phases: list[str] = field(default_factory=list)


def bwrap_available() -> bool:
    return os.path.exists(BWRAP) and os.access(BWRAP, os.X_OK)


MULTIARCH = sysconfig.get_config_var("MULTIARCH") or "x86_64-linux-gnu"
# Directories the harness and its libraries read, bound read-only; nothing else of the host exists.
SYSTEM_LIBS = [f"/usr/lib/{MULTIARCH}", "/usr/lib64", "/etc/ld.so.cache"]
# Compile jobs (nvcc) and GPU jobs (Triton builds its launcher with gcc) also need the toolchain.
# gcc's own programs (cc1, cc1plus, collect2) are under /usr/lib/gcc on Debian but /usr/libexec/gcc on
# Ubuntu (the GPU image, the first H200 host: "gcc: fatal error: cannot execute 'cc1plus'").
TOOLCHAIN = ["/usr/bin", "/usr/lib/gcc", "/usr/libexec/gcc", "/usr/include", "/usr/local/cuda"]
ROOT_LINKS = ("/lib", "/lib64", "/bin")  # merged-/usr symlinks, recreated when the host has them


def _extra_paths(var: str) -> list[str]:
    """Deployment additions (e.g. driver libraries outside /usr/lib) as a colon-separated list."""
    return [p for p in os.environ.get(var, "").split(":") if p]


# Prefixes that hold more than this Python: a distribution's /usr (Ubuntu's python3 under a venv, as
# on the GPU image and the first H200 host) or /usr/local (the python:3.11-slim web/CPU image).
# Binding such a prefix whole put all of /usr in the view, and its /usr/local/cuda link then clashed
# with the one the view recreates.
SHARED_PREFIXES = ("/", "/usr", "/usr/local")


def _prefix_parts(prefix: str) -> list[str]:
    """What of an install prefix the interpreter needs: all of a prefix of its own (pyenv, a
    venv), only the interpreter's own files of a shared one."""
    if os.path.realpath(prefix) not in SHARED_PREFIXES:
        return [prefix]
    return _interpreter_files()


def _interpreter_files() -> list[str]:
    """The standard library (lib-dynload inside it), the headers Triton's launcher build includes,
    and libpython where the interpreter links it (python:3.11-slim's /usr/local/lib/libpython3.11.so.1.0)."""
    paths = sysconfig.get_paths()
    parts = [paths[k] for k in ("stdlib", "platstdlib", "include", "platinclude")]
    libdir, soname = sysconfig.get_config_var("LIBDIR"), sysconfig.get_config_var("INSTSONAME")
    if sysconfig.get_config_var("Py_ENABLE_SHARED") and libdir and soname:
        parts.append(os.path.join(libdir, soname))
    return parts


def interpreter_paths() -> list[str]:
    """The Python install, the venv and its site-packages, and the harness's own code."""
    need = _prefix_parts(sys.base_prefix) + _prefix_parts(sys.prefix)
    need += [sys.executable, os.path.realpath(sys.executable)]
    need += [str(RUNNER_DIR), str(APP_DIR / "__init__.py")]
    need += _site_dirs()
    return list(dict.fromkeys(p for p in need if os.path.exists(p)))


# Where the driver's libcuda.so.1 may be (distro, container toolkit, WSL), first match wins.
LIBCUDA_DIRS = [
    f"/usr/lib/{MULTIARCH}",
    "/usr/lib64",
    "/usr/local/nvidia/lib64",
    "/usr/lib/wsl/lib",
]


def libcuda_dir() -> str | None:
    """The driver library's directory. Triton would ask /sbin/ldconfig, which the sandbox lacks,
    so the sandbox is told (TRITON_LIBCUDA_PATH) and the directory is in its view."""
    return next((d for d in LIBCUDA_DIRS if os.path.exists(f"{d}/libcuda.so.1")), None)


def view_paths(*, toolchain: bool, gpu: bool = False) -> list[str]:
    """Every host path the sandbox sees read-only (the allow-list, before symlinks resolve)."""
    paths = interpreter_paths() + SYSTEM_LIBS
    if toolchain:
        paths += TOOLCHAIN + [str(Path(NVCC_PATH).parent.parent)]
    if gpu and (libcuda := libcuda_dir()):
        paths.append(libcuda)
    elif os.geteuid() == 0:
        paths.append(SETPRIV)  # drops root inside the sandbox before Python starts
    paths += _extra_paths("PDC_SANDBOX_RO")
    return [p for p in dict.fromkeys(paths) if os.path.exists(p)]


def _view_args(paths: list[str], *, toolchain: bool) -> list[str]:
    """bwrap arguments that build the read-only view on an empty root.

    A path reached through a symlink (a venv pointing at a shared one, /usr/local/cuda ->
    cuda-13.0) is bound at its real location and the link is recreated, so both names work.
    """
    binds: dict[str, None] = {}
    links: dict[str, str] = {}
    for path in paths:
        binds[os.path.realpath(path)] = None
        link = _first_link(path)
        if link:
            # Its resolved target, not the next hop: /usr/local/cuda -> /etc/alternatives/cuda
            # (Ubuntu) would dangle, since /etc is not in the view.
            links[link] = os.path.realpath(link)
    for link in ROOT_LINKS if toolchain else ROOT_LINKS[:2]:
        if os.path.islink(link):
            links[link] = os.readlink(link)
    # A link inside a bound directory is already there (bwrap refuses to make it twice).
    links = {k: v for k, v in links.items() if not any(_under(k, b) for b in binds)}
    args: list[str] = []
    # Parents bwrap would create copy the host's modes (/root is 0700): make them traversable.
    parents = {str(d) for dest in [*binds, *links] for d in Path(dest).parents}
    parents -= {"/", "/tmp"}  # /tmp is the private tmpfs (1777), mounted before the view
    for parent in sorted(parents, key=lambda d: d.count("/")):
        args += ["--perms", "0755", "--dir", parent]
    for real in binds:
        args += ["--ro-bind", real, real]
    for link, target in links.items():
        args += ["--symlink", target, link]
    return args


def _first_link(path: str) -> str | None:
    """The outermost symlink on the way to `path` (itself included), if any."""
    current = "/"
    for part in Path(path).parts[1:]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            return current
    return None


def _under(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


DEV_ROOT = "/dev"  # where the host's device nodes are (tests point it at a fake tree)
GPU_CONTROL_NODES = ("nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset")


def gpu_device_nodes(minor: int | None) -> list[tuple[str, str]]:
    """(host node, sandbox path) for the assigned GPU's node, by its minor number, plus the
    control nodes every CUDA process needs; no other GPU's node."""
    if minor is None:
        return []
    names = [f"nvidia{minor}", *GPU_CONTROL_NODES]
    return [(f"{DEV_ROOT}/{n}", f"/dev/{n}") for n in names if os.path.exists(f"{DEV_ROOT}/{n}")]


def bwrap_argv(
    *,
    job_dir: Path,
    limits: Limits,
    gpu_minor: int | None,
    env: dict[str, str],
    as_root: bool,
    uid: int = NOBODY,
    toolchain: bool = False,
    seccomp_fd: int | None = None,
) -> list[str]:
    """Run as root: privileged bwrap (it must read sources such as a Python under /root), then
    setpriv drops to `uid` (a held uids.UidLease: no other live sandbox has it) as uid and gid,
    with no capabilities before anything else runs. Run as a normal user: an unprivileged user
    namespace mapping the user to 65534.

    The root is an empty tmpfs holding only the allow-listed paths (`view_paths`), then
    remounted read-only: the host's tree is not there to read."""
    # The job sees no process, socket (abstract unix ones included) or writable mount of the
    # host: test_sandbox_namespaces shows each from inside.
    argv = [
        BWRAP,
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
    ]
    tools = toolchain or gpu_minor is not None
    # The private /tmp first: a checkout or venv under /tmp (CI clones, worktrees) is then bound on
    # top of it; mounted after the view, the tmpfs would hide the interpreter itself.
    argv += ["--size", str(limits.tmp_mb * 1024 * 1024), "--perms", "1777", "--tmpfs", "/tmp"]
    argv += _view_args(view_paths(toolchain=tools, gpu=gpu_minor is not None), toolchain=tools)
    # /dev and /dev/shm are tmpfs mounts: unsized, each could take half the host's RAM, which
    # RLIMIT_AS does not count (the GPU path's memory cgroup does). /dev/shm gets /tmp's size;
    # /dev is read-only once its nodes exist on the CPU path (its device nodes still work).
    # A tmpfs of the job's own needs a user namespace nested in the sandbox's: seccomp.py refuses
    # one (as root bwrap runs without --unshare-user, so without --disable-userns).
    argv += ["--proc", "/proc", "--dev", "/dev"]
    argv += ["--size", str(limits.tmp_mb * 1024 * 1024), "--tmpfs", "/dev/shm"]
    for node, inside in gpu_device_nodes(gpu_minor):
        argv += ["--dev-bind", node, inside]
    if gpu_minor is None:
        argv += ["--remount-ro", "/dev"]
    argv += ["--perms", "0755", "--dir", str(Path(JOB_MOUNT).parent)]
    argv += ["--bind", str(job_dir), JOB_MOUNT, "--chdir", JOB_MOUNT, "--remount-ro", "/"]
    if not as_root:
        argv += [
            "--unshare-user",
            "--uid",
            str(NOBODY),
            "--gid",
            str(NOBODY),
            "--disable-userns",
            "--cap-drop",
            "ALL",
        ]
    if seccomp_fd is not None:  # no fallocate, io_uring or XFS ioctls (seccomp.py)
        argv += ["--seccomp", str(seccomp_fd)]
    argv += ["--clearenv"]
    for key, value in env.items():
        argv += ["--setenv", key, value]
    argv.append("--")
    if as_root:
        argv += [
            SETPRIV,
            f"--reuid={uid}",
            f"--regid={uid}",
            "--clear-groups",
            "--inh-caps=-all",
            "--bounding-set=-all",
            "--no-new-privs",
            "--",
        ]
    return argv


def sandbox_env(*, gpu: bool, light: bool = False, gpu_uuid: str | None = None) -> dict[str, str]:
    """The whole environment of the child: nothing inherited, so no secrets."""
    env = {
        "PATH": "/usr/local/cuda/bin:/usr/local/bin:/usr/bin:/bin",
        "HOME": "/tmp",
        "TMPDIR": "/tmp",
        "LANG": "C.UTF-8",
        "PYTHONPATH": str(CODE_ROOT),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUNBUFFERED": "1",
        "TRITON_CACHE_DIR": "/tmp/triton-cache",
        "OMP_NUM_THREADS": "1",  # one thread: predictable nproc use, fair on shared CPUs
        "MKL_NUM_THREADS": "1",
        "PDC_NVCC": NVCC_PATH,  # the nvcc the view holds (cuda_build reads it in the child)
    }
    if light:
        env["PDC_HARNESS_LIGHT"] = "1"
    if not gpu:
        env["TRITON_INTERPRET"] = "1"  # must be set before triton is imported
        env["CUDA_VISIBLE_DEVICES"] = ""
    else:
        if gpu_uuid:
            env["CUDA_VISIBLE_DEVICES"] = gpu_uuid  # the one bound /dev node; cuda:0 inside
        if libcuda := libcuda_dir():
            env["TRITON_LIBCUDA_PATH"] = libcuda
    return env


def _spawn_ceiling(limits: Limits, gpu: bool) -> list[str]:
    """prlimit ceilings applied before bwrap starts; the harness lowers them per job."""
    args = [
        PRLIMIT,
        f"--nofile={limits.open_files}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_size_mb * 1024 * 1024}",
        "--core=0",
    ]
    if not gpu:  # CUDA reserves huge virtual ranges: never RLIMIT_AS on GPU hosts
        args.append(f"--as={limits.memory_mb * 1024 * 1024}")
    return [*args, "--"]


class Sandbox:
    """A started bwrap child with the harness loaded, waiting for exactly one job."""

    def __init__(
        self,
        *,
        limits: Limits,
        gpu_index: int | None = None,
        base_dir: Path | None = None,
        light: bool = False,
    ):
        self.limits = limits
        self.gpu_index = gpu_index
        self.light = light  # harness without torch: CUDA compile-only jobs on a CPU host
        self.memory_capped = False  # GPU path: a cgroup memory.max applies to this sandbox
        self.job_dir = Path(tempfile.mkdtemp(prefix="job-", dir=base_dir or runner_tmp()))
        self.proc: subprocess.Popen[bytes] | None = None
        self._status_r = -1
        self._buf = b""
        self._out_head = bytearray()
        self._out_tail = bytearray()
        self._out_total = 0
        self._out_over = threading.Event()
        self._reader: threading.Thread | None = None
        self._killed_by_us = ""
        self._dir_cap = 0  # bytes the job dir may hold, set when the job starts (job_dir_cap)
        self._ns_init: int | None = None  # host pid of the sandbox's pid 1, found at job start
        self._job_ended = threading.Event()
        self.cgroup: cgroups.JobCgroup | None = None
        self.used = False
        self.uid = NOBODY
        self._uid_lease: uids.UidLease | None = None  # as root, from start() to cleanup()

    # -- start -------------------------------------------------------------------------------
    def command(self, status_fd: int, seccomp_fd: int | None = None) -> list[str]:
        """The child's whole command line: prlimit ceilings, bwrap with the view, the harness."""
        gpu = self.gpu_index is not None
        node = self._gpu_node() if gpu else None
        argv = _spawn_ceiling(self.limits, gpu) + bwrap_argv(
            job_dir=self.job_dir,
            limits=self.limits,
            gpu_minor=node.minor if node else None,
            env=sandbox_env(gpu=gpu, light=self.light, gpu_uuid=node.uuid if node else None),
            as_root=os.geteuid() == 0,
            uid=self.uid,
            toolchain=self.light,  # light sandboxes exist to run nvcc
            seccomp_fd=seccomp_fd,
        )
        return argv + [
            sys.executable,
            "-I",
            "-B",  # -I ignores PYTHONDONTWRITEBYTECODE; no __pycache__ in the job dir
            "-S",
            "-c",
            _HARNESS_BOOT,
            str(status_fd),
            str(CODE_ROOT),
            *_site_dirs(),
        ]

    def start(self) -> Sandbox:
        if not bwrap_available():
            raise SandboxStartError(f"bubblewrap not found at {BWRAP}")
        if os.geteuid() == 0:  # the child runs as an unprivileged uid (root ignores RLIMIT_NPROC)
            self._take_uid()
        status_r, status_w = os.pipe()
        rules = -1
        try:  # every descriptor made here is closed on any failure: a pool refills for days
            rules = seccomp.filter_fd()
            self.proc = subprocess.Popen(
                self.command(status_w, rules),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(status_w, rules),
                start_new_session=True,
                close_fds=True,
            )
        except BaseException as exc:
            os.close(status_r)
            if isinstance(exc, OSError):  # the caller's cleanup gives the uid and job dir back
                raise SandboxStartError(f"cannot start bubblewrap: {exc}") from exc
            raise
        finally:
            os.close(status_w)
            if rules >= 0:
                os.close(rules)
        self._status_r = status_r
        self._reader = threading.Thread(target=self._drain, daemon=True, name="sandbox-output")
        self._reader.start()
        return self

    def _take_uid(self) -> None:
        """A uid of this sandbox's own (fails closed: no free uid is a start error, so an
        infrastructure error before the seal), which then owns the job dir."""
        try:
            self._uid_lease = uids.acquire()
        except uids.UidUnavailable as exc:
            raise SandboxStartError(f"no sandbox uid: {exc}") from exc
        self.uid = self._uid_lease.uid
        try:
            os.chown(self.job_dir, self.uid, self.uid)
        except OSError as exc:  # a start error, so the caller's cleanup gives the uid back
            raise SandboxStartError(f"cannot give the job dir to uid {self.uid}: {exc}") from exc

    def _gpu_node(self) -> devices.GpuNode:
        """The assigned GPU's /dev minor number, found by its UUID (ordinals are not minors)."""
        assert self.gpu_index is not None
        try:
            return devices.gpu_node(devices.gpu_uuid(self.gpu_index))
        except LookupError as exc:
            raise SandboxStartError(str(exc)) from exc

    def set_memory_limit(self, memory_mb: int) -> None:
        """GPU path: this job's cgroup memory.max, MiB (a pooled sandbox starts at the ceiling)."""
        if self.cgroup and not self.cgroup.set_max(memory_mb):
            self.memory_capped = False

    def wait_ready(self, timeout_s: float = READY_TIMEOUT_S) -> None:
        msg = self._next_message(time.monotonic() + timeout_s)
        if not msg or msg.get("event") != "ready":
            self.kill()
            log = self._log_text()
            raise SandboxStartError(f"sandbox harness did not start: {log[-2000:] or 'no output'}")
        if self.gpu_index is not None and self.proc:
            self.cgroup = cgroups.JobCgroup.create(self.limits.memory_mb)
            if self.cgroup and not self.cgroup.add_tree(self.proc.pid):
                self.cgroup.remove()
                self.cgroup = None
            self.memory_capped = self.cgroup is not None

    # -- output ------------------------------------------------------------------------------
    def _drain(self) -> None:
        """Read the child's stdout+stderr in chunks; keep head and tail; kill past the cap."""
        assert self.proc and self.proc.stdout
        fd = self.proc.stdout.fileno()
        while True:
            try:
                chunk = os.read(fd, CHUNK)
            except OSError:
                break
            if not chunk:
                break
            self._out_total += len(chunk)
            if len(self._out_head) < LOG_KEEP // 2:
                self._out_head += chunk[: LOG_KEEP // 2 - len(self._out_head)]
            self._out_tail = (self._out_tail + chunk)[-(LOG_KEEP // 2) :]
            if self._out_total > self.limits.output_bytes and not self._out_over.is_set():
                self._out_over.set()
                self.kill("output_limit")

    def _log_text(self) -> str:
        head = bytes(self._out_head)
        if self._out_total <= len(head):
            return head.decode("utf-8", "replace")
        skipped = self._out_total - len(head) - len(self._out_tail)
        tail = bytes(self._out_tail)
        if skipped <= 0:  # head and tail overlap
            return (head + tail[len(tail) - (self._out_total - len(head)) :]).decode(
                "utf-8", "replace"
            )
        return (
            head.decode("utf-8", "replace")
            + f"\n… [{skipped} bytes of output skipped] …\n"
            + tail.decode("utf-8", "replace")
        )

    # -- protocol ----------------------------------------------------------------------------
    def _next_message(self, deadline: float) -> dict[str, Any] | None:
        """Next JSON line from the status pipe, or None on EOF / deadline."""
        while b"\n" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self._status_r], [], [], min(left, 1.0))
            if not ready:
                if self.proc and self.proc.poll() is not None and not self._pipe_has_data():
                    return None
                continue
            chunk = os.read(self._status_r, CHUNK)
            if not chunk:
                return None
            self._buf += chunk
            if len(self._buf) > 4 * 1024 * 1024:  # a status line is small; this is abuse
                self._buf = b""
                return {"event": "garbage"}
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            msg = json.loads(line)
        except ValueError:
            return {"event": "garbage"}
        return msg if isinstance(msg, dict) else {"event": "garbage"}

    def _pipe_has_data(self) -> bool:
        ready, _, _ = select.select([self._status_r], [], [], 0)
        return bool(ready)

    # -- the job conversation (protocol.Conversation drives it) -------------------------------
    def begin_job(self, job: dict[str, Any]) -> None:
        """Send the job; stdin stays open for the parent's commands (never blocks the parent)."""
        assert self.proc and self.proc.stdin and not self.used
        self.used = True
        self._watch_job_dir()
        os.set_blocking(self.proc.stdin.fileno(), False)
        self.send_command(job)

    def send_command(self, cmd: dict[str, Any]) -> bool:
        """One JSON line to the harness; False when it cannot be written now (child gone/stuck)."""
        if not self.proc or not self.proc.stdin or self.proc.stdin.closed:
            return False
        data = json.dumps(cmd).encode() + b"\n"
        try:
            while data:
                data = data[os.write(self.proc.stdin.fileno(), data) :]
        except OSError:  # BlockingIOError: the child stopped reading; BrokenPipeError: it died
            return False
        return True

    def receive(self, deadline: float) -> dict[str, Any] | None:
        return self._next_message(deadline)

    def end_job(self, outcome: Outcome, started: float, deadline: float, *, clean: bool) -> Outcome:
        """clean: the parent has what it needs and stops the child; else wait for its end."""
        try:
            if self.proc and self.proc.stdin:
                self.proc.stdin.close()
        except OSError:
            pass
        if clean and self.proc:
            outcome.ended = "done"
            try:  # the harness exits on `stop`; lingering threads and children die with it
                self.proc.wait(timeout=2)
            except subprocess.TimeoutExpired:
                self.kill()
        elif outcome.result is not None:
            outcome.ended = "done"
        elif self.proc:
            self._wait_for_exit(deadline)
        self._finish(outcome, started)
        return outcome

    def run_job(self, job: dict[str, Any], on_phase: Any = None) -> Outcome:
        """Send one job, follow its phases, and return how it ended. Always kills the child."""
        assert self.proc and self.proc.stdin and not self.used
        self.used = True
        self._watch_job_dir()
        started = time.monotonic()
        deadline = started + self.limits.wall_seconds
        outcome = Outcome(ended="exited")
        try:
            self.proc.stdin.write(json.dumps(job).encode() + b"\n")
            self.proc.stdin.close()
        except OSError:
            pass  # the child died already; classified below
        while True:
            msg = self._next_message(deadline)
            if msg is None:
                break
            if msg.get("event") == "phase" and isinstance(msg.get("phase"), str):
                outcome.phases.append(msg["phase"])
                if on_phase:
                    on_phase(msg["phase"])
            elif msg.get("event") == "done":
                outcome.result = msg
                outcome.ended = "done"
                break
        if outcome.ended != "done":
            # The status pipe closed (or the deadline passed) without "done".
            self._wait_for_exit(deadline)
        self._finish(outcome, started)
        return outcome

    def _wait_for_exit(self, deadline: float) -> None:
        """Give the child the rest of its wall time to exit by itself; past it, it is a timeout."""
        assert self.proc
        try:
            self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            self.kill("timeout")

    def _finish(self, outcome: Outcome, started: float) -> None:
        assert self.proc
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill(self._killed_by_us or "")
            self.proc.wait()
        self._job_ended.set()
        if not self._killed_by_us and self._dir_cap and job_dir_over(self.job_dir, self._dir_cap):
            self._killed_by_us = "disk_limit"  # filled between two polls, then ended
        if self._reader:
            self._reader.join(timeout=5)
        outcome.wall_s = time.monotonic() - started
        outcome.log = self._log_text()
        outcome.output_bytes = self._out_total
        rc = self.proc.returncode
        # bwrap reports a signalled child as 128 + signal number; Popen as -signal for bwrap itself.
        outcome.exit_code = rc
        if rc is not None and rc < 0:
            outcome.signal = -rc
        elif rc is not None and rc > 128:
            outcome.signal = rc - 128
        if self.cgroup:
            outcome.oom_killed = self.cgroup.oom_killed()
        if self._killed_by_us and outcome.ended != "done":
            outcome.ended = self._killed_by_us
        elif self._killed_by_us in ("output_limit", "disk_limit"):
            outcome.ended = self._killed_by_us
        elif outcome.ended != "done" and outcome.signal == signal.SIGXCPU:
            outcome.ended = "cpu_limit"
        elif outcome.ended != "done" and outcome.signal:
            outcome.ended = "signalled"
        self._close()

    # -- the job dir's size -------------------------------------------------------------------
    def _watch_job_dir(self) -> None:
        """The job dir is on the host's disk, and RLIMIT_FSIZE caps one file only: many files
        filled it without bound (an audit wrote 6 x 63 MiB). Measured every JOB_DIR_POLL_S while
        the job runs (the tree, and the files unlinked from it that the job still holds) and once
        at its end (the tree): past the cap the job is killed (disk_limit), so what it can write
        is the cap plus what it writes between two measurements (JOB_DIR_POLL_S plus the time one
        measurement takes, which grows with the tree and the sandbox's /proc)."""
        self._dir_cap = job_dir_cap(self.job_dir, self.limits)
        self._ns_init = namespace_init(self.proc.pid) if self.proc else None
        threading.Thread(target=self._job_dir_watch, daemon=True, name="sandbox-disk").start()

    def _job_dir_watch(self) -> None:
        while not self._job_ended.wait(JOB_DIR_POLL_S):
            if self.proc is None or self.proc.poll() is not None:
                return
            try:
                over = job_dir_over(self.job_dir, self._dir_cap, self._held_deleted())
            except Exception:  # e.g. MemoryError: an ended thread would end the cap unseen
                over = True  # what cannot be measured is over, as an unreadable directory is
            if over:
                self.kill("disk_limit")
                return

    def _held_deleted(self) -> int | None:
        """Bytes of files the job unlinked from its job dir but still holds open or mapped: no
        walk sees them, yet they stay on the disk until the job ends. Not needed at the final
        measurement: by then every process of the sandbox is gone, and the kernel freed them."""
        if self._ns_init is None:
            return 0
        # Root: the job's own uid. Otherwise the user namespace maps the job to this user.
        owner = self.uid if os.geteuid() == 0 else os.geteuid()
        return held_deleted_bytes(self._ns_init, os.stat(self.job_dir).st_dev, owner)

    # -- teardown ----------------------------------------------------------------------------
    def kill(self, reason: str = "") -> None:
        if reason and not self._killed_by_us:
            self._killed_by_us = reason
        if self.proc and self.proc.poll() is None:
            try:  # the whole session: bwrap, and through --die-with-parent everything inside
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass

    def cleanup(self) -> None:
        """Kill the child, remove the job directory (after the trusted side read it), and give
        the uid back once none of its processes is left."""
        self._close()
        remove_tree(self.job_dir)
        lease, self._uid_lease = self._uid_lease, None
        # A uid one of whose processes outlived REAP_WAIT_S is not given back: the lock's
        # descriptor stays open, so the uid stays held until this process exits.
        if lease and uids.wait_gone(lease.uid, uids.REAP_WAIT_S):
            lease.release()

    def _close(self) -> None:
        self.kill()
        if self.proc:
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                pass
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    if stream:
                        stream.close()
                except OSError:
                    pass
        if self._status_r >= 0:
            os.close(self._status_r)
            self._status_r = -1
        if self.cgroup:
            self.cgroup.remove()
            self.cgroup = None


def job_dir_cap(job_dir: Path, limits: Limits) -> int:
    """Bytes the job dir may hold: the grader's inputs (already written) stay; the harness writes
    one timed set back whole with its outputs (GPU path) or fills the slots file, which is sparse
    when this is measured and at most as large as the benchmark sets (CPU path); plus small files
    and nvcc's library. Both fit within twice the inputs; ``limits.job_dir_mb`` is room above."""
    inputs = job_dir_usage(job_dir)
    return 3 * (inputs or 0) + limits.job_dir_mb * MIB


def job_dir_over(job_dir: Path, cap_bytes: int, held_bytes: int | None = 0) -> bool:
    """held_bytes: unlinked files the job still holds (held_deleted_bytes); None is over."""
    usage = job_dir_usage(job_dir)
    return usage is None or held_bytes is None or usage + held_bytes > cap_bytes


def job_dir_usage(path: Path) -> int | None:
    """Bytes of disk the tree holds (allocated blocks: a sparse file costs what it stores),
    walked without recursion or following links; None past JOB_DIR_ENTRIES entries, where a
    directory cannot be read, or where the tree kept changing under the walk (WALK_RESTARTS),
    which only a job hiding what it wrote does."""
    for _ in range(1 + WALK_RESTARTS):
        try:
            return _walk(path)
        except _TreeChanged:
            continue
    return None


# Walks of one measurement that may find an entry gone between its listing and its scan. Skipping
# it instead hid a directory renamed in a loop from 82 of 100 walks. An honest job never renames or
# removes anything in its job dir while it runs (the harness and nvcc only create and overwrite).
WALK_RESTARTS = 3


class _TreeChanged(Exception):
    """An entry the walk listed was gone when it was scanned: the tree changed under the walk."""


def _walk(path: Path) -> int | None:
    total, entries, stack = 0, 0, [str(path)]
    while stack:
        try:
            with os.scandir(stack.pop()) as listing:
                for entry in listing:
                    entries += 1
                    if entries > JOB_DIR_ENTRIES:
                        return None
                    total += entry.stat(follow_symlinks=False).st_blocks * 512
                    if entry.is_dir(follow_symlinks=False):
                        stack.append(entry.path)
        except FileNotFoundError as exc:
            raise _TreeChanged from exc
        except OSError:
            return None
    return total


def namespace_init(bwrap_pid: int) -> int | None:
    """Host pid of the sandbox's pid 1: bwrap's one child, which --unshare-pid made the first
    process of the new pid namespace (bwrap's own reaper; the harness is its child, pid 2).
    prlimit execs bwrap, so the Popen pid is bwrap's. None if it is gone (the job is ending)."""
    try:  # needs CONFIG_PROC_CHILDREN (Debian and Ubuntu kernels have it)
        with open(f"/proc/{bwrap_pid}/task/{bwrap_pid}/children") as f:
            kids = f.read().split()
        return int(kids[0]) if kids else None
    except OSError:
        pass
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) == bwrap_pid:
                    return int(pid)
        except (OSError, ValueError, IndexError):
            continue
    return None


def held_deleted_bytes(ns_init: int, dev: int, owner: int) -> int | None:
    """Allocated bytes of the files on the job dir's filesystem (`dev`) that no directory holds
    any more (st_nlink 0) but a process of the sandbox still has open or mapped; each file once,
    by (device, inode). None past JOB_DIR_ENTRIES such files.

    The processes are those the sandbox's own /proc lists (the procfs bwrap mounted for its pid
    namespace, reached through its pid 1's root): every process of that namespace and of any
    namespace nested in it. seccomp.py now refuses the user namespace a sandbox process would
    need to make a nested one (root mode runs bwrap without --disable-userns); the walk still
    counts nested ones, where comparing /proc/<pid>/ns/pid with the sandbox's would miss their
    processes. The job cannot change that procfs: it has no capability in the mount namespace
    that holds it.

    Only files the job could have written count (owned by its uid, or writable by anyone): a host
    file on the same filesystem deleted while the sandbox maps it (a library of the venv
    replaced under a running job) is not the job's doing.

    As root every entry can be read. A parent that is not root can read the fd entries (it owns
    the sandbox's user namespace) but not map_files, which the kernel keeps for CAP_SYS_ADMIN:
    there a file mapped, closed and unlinked is not counted; the walk still is."""
    procfs = f"/proc/{ns_init}/root/proc"
    try:
        pids = [p for p in os.listdir(procfs) if p.isdigit()]
    except OSError:  # the sandbox's pid 1 is gone: the job is ending, its files with it
        return 0
    held: dict[tuple[int, int], int] = {}
    budget = _ProcBudget(PROC_FD_ENTRIES, PROC_MAPS_BYTES)
    for pid in pids:
        paths = _fd_paths(f"{procfs}/{pid}", budget) + _deleted_map_paths(f"{procfs}/{pid}", budget)
        if budget.spent():
            return None  # more than an honest job shows: over, rather than a poll of minutes
        for path in paths:
            try:
                info = os.stat(path)  # follows the magic link to the file itself
            except OSError:  # closed, unmapped or ended since listed; map_files if not root
                continue
            if info.st_nlink or info.st_dev != dev:
                continue
            if info.st_uid == owner or info.st_mode & stat.S_IWOTH:
                held[(info.st_dev, info.st_ino)] = info.st_blocks * 512
                if len(held) > JOB_DIR_ENTRIES:
                    return None
    return sum(held.values())


# What one poll may read of the sandbox's /proc. A job can make it huge (256 processes, each with
# 256 fds seen once per thread, or 65 530 mappings under long paths: a 94 MB maps file for one
# process), and a poll of minutes is a cap not enforced for minutes. An honest CUDA job shows a
# few thousand fd entries and a few MB of maps in all; past either budget the job is over.
PROC_FD_ENTRIES = 20_000  # fd entries (all threads of all processes) per poll
PROC_MAPS_BYTES = 32 * MIB  # bytes of maps files (all processes) per poll


@dataclass
class _ProcBudget:
    fds: int  # fd entries left to list in this poll
    maps_bytes: int  # bytes of maps left to read in this poll

    def spent(self) -> bool:
        return self.fds < 0 or self.maps_bytes < 0


def _fd_paths(proc: str, budget: _ProcBudget) -> list[str]:
    """The fd entries of every thread of a process: a thread can have an fd table of its own
    (clone without CLONE_FILES, unshare(CLONE_FILES)), which /proc/<pid>/fd does not show."""
    paths: list[str] = []
    try:
        tids = os.listdir(f"{proc}/task")
    except OSError:
        return paths
    for tid in tids:
        try:
            paths += [f"{proc}/task/{tid}/fd/{n}" for n in os.listdir(f"{proc}/task/{tid}/fd")]
        except OSError:
            continue
        if len(paths) > budget.fds:
            break
    budget.fds -= len(paths)
    return paths


def _deleted_map_paths(proc: str, budget: _ProcBudget) -> list[str]:
    """map_files entries of the mappings whose file is deleted, one per (device, inode): maps is
    one read, where a stat of every map_files entry would be one call per mapping (torch maps
    thousands). The threads of a process share its mappings."""
    try:
        with open(f"{proc}/maps", "rb") as f:
            text = f.read(max(budget.maps_bytes, 0) + 1)
    except OSError:
        return []
    budget.maps_bytes -= len(text)
    if budget.spent():
        return []
    paths, seen, mark = [], set(), b" (deleted)\n"
    at = text.find(mark)
    while at >= 0:  # only the deleted lines are split (a maps file is mostly other lines)
        fields = text[text.rfind(b"\n", 0, at) + 1 : at].split(maxsplit=5)
        at = text.find(mark, at + len(mark))
        if len(fields) < 6 or (fields[3], fields[4]) in seen:
            continue
        seen.add((fields[3], fields[4]))
        start, end = (int(x, 16) for x in fields[0].split(b"-"))
        paths.append(f"{proc}/map_files/{start:x}-{end:x}")  # named without maps' zero padding
    return paths


def remove_tree(path: Path) -> None:
    """Remove a job directory, however the submission shaped it. shutil.rmtree recurses in
    Python: a 3 000-deep chain of directories raised RecursionError out of the cleanup (an
    infrastructure_error, so a free retry, and the directory stayed). rm walks it iteratively;
    a directory the submission made unreadable is opened up first."""
    for attempt in range(2):
        subprocess.run(["rm", "-rf", "--", str(path)], capture_output=True, check=False)
        if not os.path.lexists(path) or attempt:
            return
        subprocess.run(["chmod", "-R", "u+rwx", "--", str(path)], capture_output=True, check=False)


STALE_JOB_S = 6 * 3600  # s: job dirs left by a killed parent are swept after this long
_swept = False


def runner_tmp() -> Path:
    """Private base directory for job dirs (0711: others can enter their own job dir only)."""
    global _swept
    tmp = os.environ.get("PDC_RUNNER_TMP") or tempfile.gettempdir()
    base = Path(tmp) / f"pdc-runner-{os.getuid()}"
    base.mkdir(mode=0o711, exist_ok=True)
    os.chmod(base, 0o711)
    if not _swept:
        _swept = True
        cutoff = time.time() - STALE_JOB_S
        for old in base.glob("job-*"):
            try:
                if old.stat().st_mtime < cutoff:
                    remove_tree(old)
            except OSError:
                pass
    return base


def _site_dirs() -> list[str]:
    """Where packages are: site-packages (venvs, pyenv), dist-packages (a Debian/Ubuntu Python)."""
    return [
        p
        for p in sys.path
        if p and ("site-packages" in p or "dist-packages" in p) and os.path.isdir(p)
    ]


# The child runs with -I -S (no user site, no env influence); this boot line adds only the
# repository root and the venv's site-packages, then hands over to the harness.
_HARNESS_BOOT = (
    "import site, sys; sys.path.insert(0, sys.argv[2]); "
    "[site.addsitedir(p) for p in sys.argv[3:]]; "
    "from gradinglab.runner.harness import main; main(int(sys.argv[1]))"
)
