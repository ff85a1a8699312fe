"""The trusted parent's side of the harness protocol: what it accepts, and how it reads files.

The harness sends `sealed` right before student code can run. Before that, its messages are the
grader's own (a failure there is `infrastructure_error` with the phase). After it, the process is
the student's: every message is an untrusted claim, checked field by field against what the parent
asked for; anything off the protocol is the student's `runtime_error`, never a free retry.
Files come back only as regular files of bounded size, opened without following links and without
blocking, so a FIFO or a symlink cannot hang or mislead the trusted side.
"""

from __future__ import annotations

import io
import os
import stat
import time
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from .sandbox import Outcome, Sandbox
from .slots import SlotFile

# Statuses a sealed harness may claim in `done` (a claim can only cost the student points).
SEALED_STATUSES = ("compile_error", "runtime_error", "memory_limit", "timeout")
PHASES = ("compiling", "testing")
MAX_RESULT_BYTES = 256 * 1024 * 1024  # result.pt of the small correctness cases, bytes
MAX_SAMPLE_BYTES = 64 * 1024 * 1024  # one round's sampled elements, bytes


class Unreadable(ValueError):
    """A file the sandbox wrote could not be read back as plain tensors."""


def _check_archive(name: str, data: bytes, cap_bytes: int) -> None:
    """torch.save writes a zip of stored (uncompressed) records. A deflated record can inflate
    a file of a few MiB to GiBs in the trusted process (an audit's 3 MiB result.pt took the
    grader from 222 MiB to 3.3 GiB), so only stored records, no larger in all than the cap."""
    try:
        entries = zipfile.ZipFile(io.BytesIO(data)).infolist()
    except (zipfile.BadZipFile, ValueError, OSError) as exc:
        raise Unreadable(f"{name} is not a torch.save archive ({exc})") from exc
    if any(e.compress_type != zipfile.ZIP_STORED for e in entries):
        raise Unreadable(f"{name} has compressed records (torch.save writes none)")
    if sum(e.file_size for e in entries) > cap_bytes:
        raise Unreadable(f"{name} unpacks to more than {cap_bytes // 2**20} MiB")


def read_returned(path: Path, cap_bytes: int) -> dict[str, Any]:
    """torch.load of a sandbox-written file: regular, <= cap_bytes, no links, never blocking,
    stored records only, and a dict at the top (what every caller indexes)."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as exc:
        raise Unreadable(f"{path.name} is missing or not a plain file ({exc.strerror})") from exc
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Unreadable(f"{path.name} is not a regular file")
        if info.st_size > cap_bytes:
            raise Unreadable(f"{path.name} is larger than {cap_bytes // 2**20} MiB")
        chunks, left = [], cap_bytes + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap_bytes:
        raise Unreadable(f"{path.name} grew past {cap_bytes // 2**20} MiB while being read")
    _check_archive(path.name, data, cap_bytes)
    try:
        loaded = torch.load(io.BytesIO(data), weights_only=True, map_location="cpu")
    except Exception as exc:
        raise Unreadable(f"{path.name}: {str(exc)[:300]}") from exc
    if not isinstance(loaded, dict):
        raise Unreadable(f"{path.name} holds a {type(loaded).__name__}, not a dict")
    _check_dense(path.name, loaded)
    return loaded


def _check_dense(name: str, loaded: dict[str, Any]) -> None:
    """Every tensor in the file is a plain torch.Tensor, strided (dense), not nested, on the CPU.
    weights_only loads sparse and nested tensors too; the checks took one for a tensor, and
    reading its shape or reshaping it raised RuntimeError, the device-failure class:
    infrastructure_error, a free retry the submission chose (audits: sparse, then nested outputs
    in result.pt). A quantized tensor is plain and strided; its dtype is never a problem's, which
    the checks refuse."""
    stack: list[Any] = [loaded]
    while stack:  # a file <= the cap holds few enough objects for a plain walk
        value = stack.pop()
        if isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list | tuple):
            stack.extend(value)
        elif isinstance(value, torch.Tensor) and not _plain_dense(value):
            raise Unreadable(f"{name} holds a tensor that is not a dense CPU tensor")


def _plain_dense(tensor: torch.Tensor) -> bool:
    try:
        return (
            type(tensor) is torch.Tensor
            and not tensor.is_nested
            and tensor.layout == torch.strided
            and tensor.device.type == "cpu"
        )
    except Exception:  # an attribute of an odd tensor raised: not one the checks can read
        return False


def _is_int(v: Any) -> bool:
    return type(v) is int


def _is_num(v: Any) -> bool:
    return type(v) in (int, float)


def _int_list(v: Any, limit: int) -> bool:
    return isinstance(v, list) and len(v) <= limit and all(_is_int(x) for x in v)


def check_tested(msg: dict[str, Any], n_cases: int) -> str | None:
    """Why a `tested` message breaks the protocol, or None: the case indices that returned a
    value instead of writing `out` (a hint on the page), nothing else."""
    if set(msg) != {"event", "returned_value"}:
        return f"unexpected fields in tested {sorted(set(msg))[:5]}"
    if not _int_list(msg["returned_value"], n_cases):
        return "returned_value is not a list of case indices"
    return None


def check_done(msg: dict[str, Any], *, sealed: bool, cpu_path: bool) -> str | None:
    """Why a `done` message breaks the protocol, or None. needs_gpu (CPU path only) is no pass
    and costs an attempt like any other verdict, so claiming it gains nothing."""
    status = msg.get("status")
    allowed = SEALED_STATUSES + (("needs_gpu",) if cpu_path else ())
    if not sealed:
        allowed = ("infrastructure_error",)
    if status not in allowed:
        return f"unexpected status {str(status)[:40]!r}"
    known = {"event", "status", "message", "message_parts", "failed_case", "kernel", "compile"}
    known.add("phase")  # message_parts: checked where the message is used (messages.from_wire)
    if set(msg) - known:
        return f"unexpected fields {sorted(set(msg) - known)[:5]}"
    if not isinstance(msg.get("message", ""), str):
        return "message is not text"
    if "failed_case" in msg and not _is_int(msg["failed_case"]):
        return "failed_case is not an integer"
    if msg.get("kernel") is not None and not isinstance(msg["kernel"], str):
        return "kernel is not text"
    comp = msg.get("compile")
    if comp is not None and not (
        isinstance(comp, dict)
        and isinstance(comp.get("ok"), bool)
        and isinstance(comp.get("log", ""), str)
    ):
        return "compile is malformed"
    return None


class Conversation:
    """One job's exchange with a sandbox, following the seal. Owns the job's wall clock."""

    def __init__(
        self,
        sandbox: Sandbox,
        job: dict[str, Any],
        wall_seconds: float,
        on_phase: Callable[[str], None] | None = None,
        n_cases: int = 0,
    ):
        self.sandbox = sandbox
        self.n_cases = n_cases  # how many test cases a `tested` message may name
        self.job = job
        self.on_phase = on_phase
        self.started = time.monotonic()
        self.deadline = self.started + wall_seconds
        self.outcome = Outcome(ended="exited")
        self.sealed = False
        self.violation: str | None = None  # why the protocol broke (whose fault: self.sealed)
        self.done: dict[str, Any] | None = None  # a validated `done` (the run ended there)
        self.cpu_path = job["device"] != "cuda"
        self.complete = False  # the parent has read everything it asked for
        # Each benchmark's key to its masked sets (gpu_timing.masked): sent with the timed rounds'
        # `go` only, never in the job (the sandbox has the job before the seal).
        self.mask_keys: list[int] = []
        # Each benchmark's snapshot slots where the parent reads them itself (slots.py, the CPU
        # path); empty where the sandbox sends each round's sample (the GPU path).
        self.slot_files: list[SlotFile] = []

    @property
    def stopped(self) -> bool:
        return self.violation is not None or self.done is not None

    def start(self) -> None:
        self.sandbox.begin_job(self.job)

    def phase(self, name: str) -> None:
        self.outcome.phases.append(name)
        if self.on_phase:
            self.on_phase(name)

    def command(self, cmd: dict[str, Any]) -> bool:
        if self.stopped:
            return False
        if not self.sandbox.send_command(cmd):
            self._broken("stopped reading the grader's commands")
            return False
        return True

    def expect(self, event: str, **match: Any) -> dict[str, Any] | None:
        """The next message, which must be `event` with these field values; None if it was not."""
        while not self.stopped:
            msg = self.sandbox.receive(self.deadline)
            if msg is None:
                return None  # the process ended, or the wall clock ran out: see the outcome
            name = msg.get("event")
            if name == "phase" and self.sealed:
                if msg.get("phase") not in PHASES or set(msg) != {"event", "phase"}:
                    self._broken(f"unexpected phase message {str(msg)[:80]}")
                    return None
                self.phase(msg["phase"])
                continue
            if name == "done":
                why = check_done(msg, sealed=self.sealed, cpu_path=self.cpu_path)
                if why:
                    self._broken(why)
                    return None
                self.done = msg
                return None
            if name != event or any(msg.get(k) != v for k, v in match.items()):
                self._broken(f"expected {event!r}, got {str(msg)[:80]}")
                return None
            if name == "sealed":
                self.sealed = True
            if name == "tested" and (why := check_tested(msg, self.n_cases)):
                self._broken(why)
                return None
            return msg
        return None

    def _broken(self, why: str) -> None:
        self.violation = why
        self.sandbox.kill()

    def close(self) -> None:
        """Let go of the parent's own descriptors (the slots' files); idempotent."""
        for slot_file in self.slot_files:
            slot_file.close()

    def finish(self) -> Outcome:
        """Stop the sandbox (the parent decides when) and say how it ended."""
        if not self.stopped:
            self.sandbox.send_command({"cmd": "stop"})
        self.outcome.result = self.done
        return self.sandbox.end_job(
            self.outcome, self.started, self.deadline, clean=self.complete and not self.stopped
        )
