"""The timed calls' snapshot slots in a file the parent reads itself (the CPU path).

Every timed call copies its inputs and outputs into its own slot (gpu_timing.BenchBuffers.
run_round), and the round's sample is drawn from the slots with a seed the sandbox is never told
before the round ended. Where the sandbox draws the sample and writes it to a file (the GPU path),
a patched harness can skip the calls and compute, once asked, only what the sample holds: a few
thousand elements, and for a linear map (vector add, transpose) the weighted sums straight from
the inputs at about the cost of the harness's own sums, which the no-op rounds subtract; an
audit's transpose made no call and was graded 0.000 ms (docs/result-schema.md).

Here the parent creates the slots' file in the job dir, sizes it and keeps its own descriptor
before the job is sent; the harness maps it before the seal. After a round's `end` the parent
reads the whole file through that descriptor and stops its clock (measure._round): every element
of every call's outputs must be in the file by the time the read reaches it. The sandbox is not
stopped at `end`, so work it goes on doing counts where it lands ahead of the read; what it gains
is at most the read's duration (one preadv of the file). The parent then draws the sample from
its copy, after the clock. Renaming or unlinking the path changes nothing the parent reads (it
reads the file it made); cutting the file short makes the read short, which is the student's
wrong_answer (SlotsUnreadable), never a crash of the parent (a read, not a mapping: no SIGBUS).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import torch

ALIGN = 64  # bytes: every slot tensor starts on a cache line, so any dtype's view is aligned
PARTS = ("inputs", "outputs")

Slots = list[dict[str, dict[str, torch.Tensor]]]  # per call: {part: {name: tensor}}


class SlotsUnreadable(ValueError):
    """The slots' file no longer holds what the parent sized it to (the sandbox cut it)."""


@dataclass(frozen=True)
class Field:
    part: str
    name: str
    offset: int  # bytes from the start of a call's slot
    shape: tuple[int, ...]
    dtype: torch.dtype
    nbytes: int


@dataclass(frozen=True)
class Layout:
    """Where each tensor of each call's slot lies in the file: the same on both sides, since
    both compute it from the benchmark's first set (its tensors' shapes and dtypes)."""

    fields: tuple[Field, ...]
    call_bytes: int
    calls: int

    @property
    def total_bytes(self) -> int:
        return self.call_bytes * self.calls


def _aligned(n: int) -> int:
    return -(-n // ALIGN) * ALIGN


def layout_of(one_set: dict[str, Any], calls: int) -> Layout:
    """The slots of `calls` calls of a benchmark whose sets look like `one_set`."""
    fields, at = [], 0
    for part in PARTS:
        for name in sorted(one_set[part]):
            t = one_set[part][name]
            nbytes = t.numel() * t.element_size()
            fields.append(Field(part, name, at, tuple(t.shape), t.dtype, nbytes))
            at += _aligned(nbytes)
    return Layout(tuple(fields), _aligned(at), calls)


def views(buf: torch.Tensor, layout: Layout) -> Slots:
    """Each call's slot as tensors over `buf` (uint8, layout.total_bytes long): no copies."""
    slots: Slots = []
    for call in range(layout.calls):
        slot: dict[str, dict[str, torch.Tensor]] = {part: {} for part in PARTS}
        for f in layout.fields:
            start = call * layout.call_bytes + f.offset
            raw = buf[start : start + f.nbytes]
            slot[f.part][f.name] = raw.view(f.dtype).view(f.shape)
        slots.append(slot)
    return slots


def map_file(path: str, layout: Layout) -> Slots:
    """The sandbox's side: the parent's file mapped shared, so every copy into a slot is in it."""
    buf = torch.from_file(path, shared=True, size=layout.total_bytes, dtype=torch.uint8)
    return views(buf, layout)


class SlotFile:
    """The parent's side: the file it made for one benchmark, read through its own descriptor."""

    def __init__(self, path: Path, layout: Layout, owner: int | None):
        self.layout = layout
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        self.fd = os.open(path, flags, 0o600)
        try:
            os.ftruncate(self.fd, layout.total_bytes)
            if owner is not None:  # a root grader: the sandbox's own uid must write it
                os.fchown(self.fd, owner, owner)
            self._buf = torch.empty(layout.total_bytes, dtype=torch.uint8)
        except BaseException:
            os.close(self.fd)
            raise
        self._read_once = False

    def read(self) -> Slots:
        """Every call's slot as the file holds it now. The views share one buffer, which the
        next read overwrites: take what is needed (measure samples and sums it) before then."""
        want = self.layout.total_bytes
        view, got = memoryview(self._buf.numpy()).cast("B"), 0
        while got < want:  # one read returns at most about 2 GiB on Linux
            n = os.preadv(self.fd, [view[got:]], got)
            if n == 0:
                raise SlotsUnreadable(f"the timed calls' slots file holds {got} of {want} bytes")
            got += n
        self._read_once = True
        return views(self._buf, self.layout)

    def last_read(self) -> Slots:
        """The slots as the last read() found them, inside that round's clock, whatever the
        sandbox wrote into the file since."""
        if not self._read_once:
            raise SlotsUnreadable("the timed calls' slots were never read")
        return views(self._buf, self.layout)

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1
