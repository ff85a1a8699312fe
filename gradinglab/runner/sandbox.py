"""One bubblewrap child per job: the only place the runner starts untrusted code.

The trusted parent builds the bwrap command line, owns the wall clock, reads the child's output in
chunks with a byte cap, and classifies how the child ended. The harness inside the sandbox
(`harness.py`) applies the per-job rlimits before it loads any student code.
"""

from __future__ import annotations

import itertools
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from . import cgroups

BWRAP = os.environ.get("PDC_BWRAP", "/usr/bin/bwrap")
PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"
SETPRIV = shutil.which("setpriv") or "/usr/bin/setpriv"
NOBODY = 65534  # uid/gid inside an unprivileged user namespace (Debian's nobody/nogroup)
# As root, each sandbox gets its own unassigned uid: RLIMIT_NPROC counts per uid, so a fork bomb
# in one job cannot starve a concurrent job of processes. 3e6+ is outside system/user/subuid ranges.
SANDBOX_UID_BASE = 3_000_000
SANDBOX_UID_SPAN = 1_000_000
_uid_counter = itertools.count()


def _next_uid() -> int:
    return SANDBOX_UID_BASE + (os.getpid() * 64 + next(_uid_counter)) % SANDBOX_UID_SPAN


RUNNER_DIR = Path(__file__).resolve().parent  # gradinglab/runner
APP_DIR = RUNNER_DIR.parent  # gradinglab
CODE_ROOT = APP_DIR.parent  # the repository root: parent of the gradinglab package
JOB_MOUNT = "/run/job"  # where the job directory appears inside the sandbox (/run is a tmpfs)
READY_TIMEOUT_S = 120.0  # importing torch + triton on a loaded 2-core host takes ~2-10 s
CHUNK = 65536  # bytes per read of the child's output
LOG_KEEP = 64 * 1024  # bytes of output kept for the result log (head and tail)


@dataclass(frozen=True)
class Limits:
    """Per-job limits. Units are in the names; defaults fit the CPU path on small shapes."""

    cpu_seconds: float = 60.0  # RLIMIT_CPU for the job, s (set when the job starts)
    wall_seconds: float = 120.0  # wall clock for the job, s, enforced by the trusted parent
    memory_mb: int = 2048  # CPU path: RLIMIT_AS, MiB; GPU path: cgroup memory.max, MiB
    file_size_mb: int = 64  # RLIMIT_FSIZE, MiB: largest file the job may write
    open_files: int = 256  # RLIMIT_NOFILE
    processes: int = 256  # RLIMIT_NPROC (threads count too); torch + nvcc need a few dozen
    output_bytes: int = 8 * 1024 * 1024  # stdout + stderr bytes before the job is killed
    tmp_mb: int = 256  # size of the private /tmp tmpfs, MiB
    compile_seconds: float = 60.0  # wall clock for nvcc inside the sandbox, s

    def merged(self, overrides: dict[str, Any] | None) -> Limits:
        known = {k: v for k, v in (overrides or {}).items() if k in asdict(self)}
        return Limits(**{**asdict(self), **known})


class SandboxStartError(RuntimeError):
    """The sandbox could not be started or the harness died before it was ready."""


@dataclass
class Outcome:
    """How a job ended, as seen from the trusted side."""

    ended: str  # done | timeout | cpu_limit | output_limit | exited | signalled
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


def _hidden_paths() -> list[str]:
    """Directories replaced by empty tmpfs inside the sandbox: secrets, other jobs, the repo."""
    hide = ["/tmp", "/var/tmp", "/run", "/root", "/home", "/srv", "/mnt", "/media", "/var/lib"]
    hide += [str(CODE_ROOT), str(CODE_ROOT.parent)]
    hide += [p for p in os.environ.get("PDC_SANDBOX_HIDE", "").split(":") if p]
    keep = [p for p in dict.fromkeys(hide) if p not in ("/", "") and os.path.isdir(p)]
    return sorted(keep, key=lambda p: p.count("/"))  # parents first, or a later tmpfs hides them


def _needed_paths() -> list[str]:
    """Read-only paths the harness needs even when they sit under a hidden directory."""
    need = [sys.prefix, sys.base_prefix, str(Path(sys.executable).resolve().parent)]
    need += [str(RUNNER_DIR), str(APP_DIR / "__init__.py")]
    need += [p for p in sys.path if p and os.path.isdir(p) and "site-packages" in p]
    return list(dict.fromkeys(os.path.realpath(p) for p in need if os.path.exists(p)))


def _under(path: str, parent: str) -> bool:
    return path == parent or path.startswith(parent.rstrip("/") + "/")


def gpu_device_nodes(gpu_index: int | None) -> list[str]:
    """Only the assigned GPU's node plus the control nodes every CUDA process needs."""
    if gpu_index is None:
        return []
    nodes = [
        f"/dev/nvidia{gpu_index}",
        "/dev/nvidiactl",
        "/dev/nvidia-uvm",
        "/dev/nvidia-uvm-tools",
        "/dev/nvidia-modeset",
    ]
    return [n for n in nodes if os.path.exists(n)]


def bwrap_argv(
    *,
    job_dir: Path,
    limits: Limits,
    gpu_index: int | None,
    env: dict[str, str],
    as_root: bool,
    uid: int = NOBODY,
) -> list[str]:
    """Run as root: privileged bwrap (it must read sources such as a Python under /root), then
    setpriv drops to a fresh unprivileged uid/gid with no capabilities before anything else
    runs. Run as a normal user: an unprivileged user namespace mapping the user to 65534."""
    hidden = _hidden_paths()
    argv = [
        BWRAP,
        "--unshare-ipc",
        "--unshare-pid",
        "--unshare-net",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--die-with-parent",
        "--new-session",
        "--ro-bind",
        "/",
        "/",
    ]
    for path in hidden:
        size = str(limits.tmp_mb * 1024 * 1024) if path == "/tmp" else "1048576"
        argv += ["--size", size, "--perms", "1777" if path == "/tmp" else "0755", "--tmpfs", path]
    argv += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/dev/shm"]
    for node in gpu_device_nodes(gpu_index):
        argv += ["--dev-bind", node, node]
    made: set[str] = set()
    for path in _needed_paths():
        top = [h for h in hidden if _under(path, h)]
        if not top:
            continue
        # Parents inside the tmpfs must be traversable by the sandbox uid (bwrap copies 0700).
        parent = Path(path).parent
        chain = []
        while str(parent) != top[0] and _under(str(parent), top[0]):
            chain.append(str(parent))
            parent = parent.parent
        for d in reversed(chain):
            if d not in made:
                argv += ["--perms", "0755", "--dir", d]
                made.add(d)
        argv += ["--ro-bind", path, path]
    argv += ["--bind", str(job_dir), JOB_MOUNT, "--chdir", JOB_MOUNT]
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


def sandbox_env(*, gpu: bool, light: bool = False) -> dict[str, str]:
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
    }
    if light:
        env["PDC_HARNESS_LIGHT"] = "1"
    if not gpu:
        env["TRITON_INTERPRET"] = "1"  # must be set before triton is imported
        env["CUDA_VISIBLE_DEVICES"] = ""
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
        self.cgroup: cgroups.JobCgroup | None = None
        self.used = False
        self.uid = NOBODY

    # -- start -------------------------------------------------------------------------------
    def start(self) -> Sandbox:
        if not bwrap_available():
            raise SandboxStartError(f"bubblewrap not found at {BWRAP}")
        gpu = self.gpu_index is not None
        status_r, status_w = os.pipe()
        as_root = os.geteuid() == 0
        self.uid = _next_uid() if as_root else NOBODY
        if as_root:  # the child runs as an unprivileged uid (RLIMIT_NPROC is ignored for root)
            os.chown(self.job_dir, self.uid, self.uid)
        argv = _spawn_ceiling(self.limits, gpu) + bwrap_argv(
            job_dir=self.job_dir,
            limits=self.limits,
            gpu_index=self.gpu_index,
            env=sandbox_env(gpu=gpu, light=self.light),
            as_root=as_root,
            uid=self.uid,
        )
        argv += [
            sys.executable,
            "-I",
            "-B",  # -I ignores PYTHONDONTWRITEBYTECODE; no __pycache__ in the job dir
            "-S",
            "-c",
            _HARNESS_BOOT,
            str(status_w),
            str(CODE_ROOT),
            *_site_dirs(),
        ]
        try:
            self.proc = subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                pass_fds=(status_w,),
                start_new_session=True,
                close_fds=True,
            )
        except OSError as exc:
            os.close(status_r)
            raise SandboxStartError(f"cannot start bubblewrap: {exc}") from exc
        finally:
            os.close(status_w)
        self._status_r = status_r
        self._reader = threading.Thread(target=self._drain, daemon=True, name="sandbox-output")
        self._reader.start()
        return self

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
                return None
        line, self._buf = self._buf.split(b"\n", 1)
        try:
            msg = json.loads(line)
        except ValueError:
            return {"event": "garbage"}
        return msg if isinstance(msg, dict) else {"event": "garbage"}

    def _pipe_has_data(self) -> bool:
        ready, _, _ = select.select([self._status_r], [], [], 0)
        return bool(ready)

    def run_job(self, job: dict[str, Any], on_phase: Any = None) -> Outcome:
        """Send one job, follow its phases, and return how it ended. Always kills the child."""
        assert self.proc and self.proc.stdin and not self.used
        self.used = True
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
            # The status pipe closed (or the deadline passed) without "done": give the child
            # the rest of its wall time to exit by itself, then it is a timeout.
            try:
                self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                self.kill("timeout")
        self._finish(outcome, started)
        return outcome

    def _finish(self, outcome: Outcome, started: float) -> None:
        assert self.proc
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.kill(self._killed_by_us or "")
            self.proc.wait()
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
        elif self._killed_by_us == "output_limit":
            outcome.ended = "output_limit"
        elif outcome.ended != "done" and outcome.signal == signal.SIGXCPU:
            outcome.ended = "cpu_limit"
        elif outcome.ended != "done" and outcome.signal:
            outcome.ended = "signalled"
        self._close()

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
        """Kill the child and remove the job directory (after the trusted side read it)."""
        self._close()
        shutil.rmtree(self.job_dir, ignore_errors=True)

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
                    shutil.rmtree(old, ignore_errors=True)
            except OSError:
                pass
    return base


def _site_dirs() -> list[str]:
    return [p for p in sys.path if p and "site-packages" in p and os.path.isdir(p)]


# The child runs with -I -S (no user site, no env influence); this boot line adds only the
# repository root and the venv's site-packages, then hands over to the harness.
_HARNESS_BOOT = (
    "import site, sys; sys.path.insert(0, sys.argv[2]); "
    "[site.addsitedir(p) for p in sys.argv[3:]]; "
    "from gradinglab.runner.harness import main; main(int(sys.argv[1]))"
)
