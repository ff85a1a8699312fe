"""Warm pool of pre-started sandboxes, one process-local pool per (GPU index).

Each pooled sandbox is a fresh bwrap child that has already imported torch/triton and waits for
ONE job, then exits: every sandbox guarantee holds per job, only the import cost is pre-paid.
Safe for Celery prefork (a forked child forgets its parent's pool and builds its own lazily) and
for the CLI (idle sandboxes are killed at exit). Disable with PDC_RUNNER_POOL=0.
"""

from __future__ import annotations

import atexit
import os
import threading
from collections.abc import Callable
from dataclasses import replace

import pdcenv

from .canary import Readiness
from .sandbox import Limits, Sandbox, SandboxStartError

# Idle sandboxes kept per process (0: a fresh sandbox per job).
POOL_SIZE = pdcenv.env_int("PDC_RUNNER_POOL", 1, minimum=0)
# Spawn-time ceilings; the harness lowers them to each job's limits before the job starts.
CEILING = Limits(
    memory_mb=pdcenv.env_int("PDC_RUNNER_MEMORY_CEILING_MB", 4096, minimum=256),  # MiB
    file_size_mb=4096,
    open_files=1024,
    processes=512,
)


class WarmPool:
    def __init__(
        self,
        size: int,
        gpu_index: int | None,
        light: bool = False,
        canary: Callable[[int], Readiness] | None = None,
    ):
        self.size = size
        self.gpu_index = gpu_index
        self.light = light
        self._idle: list[Sandbox] = []
        self._lock = threading.Lock()
        self._refilling = False
        # Bumped by shutdown(): a spare whose start began before it is not handed out after it
        # (a test that changes how sandboxes start, or configure(0), must not get an old one).
        self._generation = 0
        self._thread: threading.Thread | None = None
        self._wake = threading.Event()
        self.last_error: str = ""
        # GPU pools: the check that the host can run jobs (the grader's canary, see canary.run);
        # a GPU pool given none refuses jobs rather than grade on an unchecked host.
        self.canary = canary
        self.readiness: Readiness | None = None  # GPU pools: the canary's finding
        # The thread running the canary: its own grading passes the check; every other thread
        # waits for the finding (bench/gpu_check grades 8 jobs at once through one pool).
        self._canary_thread: int | None = None
        self._ready_lock = threading.Lock()

    def _fits(self, limits: Limits) -> bool:
        # GPU path: memory is the cgroup's memory.max, set per job (no RLIMIT_AS at spawn).
        return (
            (limits.memory_mb <= CEILING.memory_mb or self.gpu_index is not None)
            and limits.file_size_mb <= CEILING.file_size_mb
            and limits.open_files <= CEILING.open_files
            and limits.processes <= CEILING.processes
            and limits.tmp_mb == CEILING.tmp_mb
        )

    def check_ready(self) -> None:
        """GPU pools: run the canary once (its own grading passes through here unchecked);
        SandboxStartError with the reason while this worker must refuse jobs."""
        if self.gpu_index is None or self._canary_thread == threading.get_ident():
            return
        with self._ready_lock:
            if self.readiness is None:
                self._canary_thread = threading.get_ident()
                try:
                    self.readiness = (
                        self.canary(self.gpu_index)
                        if self.canary is not None
                        else Readiness(False, "no canary check was given to this GPU pool")
                    )
                finally:
                    self._canary_thread = None
        if not self.readiness.ok:
            raise SandboxStartError(f"this GPU worker refuses jobs: {self.readiness.reason}")

    def acquire(self, limits: Limits) -> Sandbox:
        """A ready sandbox for one job (from the pool when it fits, else started now)."""
        self.check_ready()
        sandbox, dead = None, []
        if self.size > 0 and self._fits(limits):
            with self._lock:
                while self._idle and sandbox is None:
                    candidate = self._idle.pop(0)
                    if candidate.proc and candidate.proc.poll() is None:
                        sandbox = candidate
                    else:
                        dead.append(candidate)
        for candidate in dead:  # outside the lock: a cleanup may wait seconds for its processes
            candidate.cleanup()
        fresh = sandbox is None
        if fresh:
            sandbox = Sandbox(
                limits=CEILING if self._fits(limits) else limits,
                gpu_index=self.gpu_index,
                light=self.light,
            )
        try:
            if fresh:
                sandbox.start().wait_ready()
            # The parent-enforced limits (wall, output) of this job; on the GPU path its cgroup cap.
            sandbox.limits = replace(limits)
            sandbox.set_memory_limit(limits.memory_mb)
        except BaseException:
            sandbox.cleanup()  # its job dir and its uid, as _refill does; else held until exit
            raise
        return sandbox

    def release(self) -> None:
        """A job finished: refill now, so the refill does not compete with the job for CPU."""
        self.refill_async()

    def refill_async(self) -> None:
        with self._lock:
            if self._refilling or len(self._idle) >= self.size:
                return
            self._refilling = True
            if self._thread is None or not self._thread.is_alive():
                # One long-lived thread starts every spare: bwrap's --die-with-parent is tied to
                # the THREAD that forked it (PR_SET_PDEATHSIG), so a short-lived refill thread
                # would take its spare down with it when it exits.
                self._thread = threading.Thread(
                    target=self._refill_loop, daemon=True, name="sandbox-pool-refill"
                )
                self._thread.start()
            self._wake.set()

    def _refill_loop(self) -> None:
        while _pid == os.getpid():
            self._wake.wait()
            self._wake.clear()
            self._refill()

    def _refill(self) -> None:
        try:
            while True:
                with self._lock:
                    if len(self._idle) >= self.size or _pid != os.getpid():
                        return
                    generation = self._generation
                sandbox = Sandbox(limits=CEILING, gpu_index=self.gpu_index, light=self.light)
                try:
                    sandbox.start().wait_ready()
                except SandboxStartError as exc:
                    self.last_error = str(exc)
                    sandbox.cleanup()
                    return  # the next acquire starts one synchronously and reports the error
                with self._lock:
                    fresh = generation == self._generation
                    if fresh:
                        self._idle.append(sandbox)
                if not fresh:
                    sandbox.cleanup()  # started before a shutdown: the loop starts a new one
        finally:
            with self._lock:
                self._refilling = False

    def shutdown(self) -> None:
        """Kill the idle sandboxes; one being started now is killed when it is ready."""
        with self._lock:
            self._generation += 1
            idle, self._idle = self._idle, []
        for sandbox in idle:
            sandbox.cleanup()


_pools: dict[tuple[int | None, bool], WarmPool] = {}
_pid = os.getpid()
_guard = threading.Lock()


def get_pool(
    gpu_index: int | None = None,
    light: bool = False,
    canary: Callable[[int], Readiness] | None = None,
) -> WarmPool:
    """The process's pool for a GPU (None: CPU path); `light` pools skip importing torch.
    `canary` is the GPU host check the pool runs before its first job (see WarmPool)."""
    global _pid
    with _guard:
        if _pid != os.getpid():  # forked: the parent's sandboxes are not ours to use or kill
            _pools.clear()
            _pid = os.getpid()
        key = (gpu_index, light)
        if key not in _pools:
            _pools[key] = WarmPool(POOL_SIZE, gpu_index, light, canary)
        return _pools[key]


def configure(size: int) -> None:
    """Set the idle-pool size for this process (0: a fresh sandbox is started per job)."""
    global POOL_SIZE
    POOL_SIZE = size
    for p in _pools.values():
        p.size = size
        if size == 0:
            p.shutdown()


def warm_up(gpu_index: int | None = None, canary: Callable[[int], Readiness] | None = None) -> None:
    """Start filling the pool now (e.g. when a worker process starts); GPU: canary first."""
    warm = get_pool(gpu_index, canary=canary)
    try:
        warm.check_ready()
    except SandboxStartError as exc:
        warm.last_error = str(exc)
        return
    warm.refill_async()


def shutdown_all() -> None:
    if _pid != os.getpid():
        return
    for pool in list(_pools.values()):
        pool.shutdown()


def _after_fork_in_child() -> None:
    global _pid, _guard
    _guard = threading.Lock()  # the parent's lock may have been held by a thread at fork time
    _pools.clear()
    _pid = os.getpid()


os.register_at_fork(after_in_child=_after_fork_in_child)
atexit.register(shutdown_all)
