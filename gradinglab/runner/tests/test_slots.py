"""The timed calls' slots file (slots.py): what the sandbox writes through its mapping is what the
parent reads through its own descriptor, and a file the sandbox cut or replaced never misleads or
crashes the parent."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

from gradinglab.runner import slots

ONE_SET = {
    "inputs": {
        "x": torch.zeros(3, 5, dtype=torch.float16),
        "n": torch.zeros((), dtype=torch.int64),
        "mask": torch.zeros(7, dtype=torch.bool),
    },
    "outputs": {
        "out": torch.zeros(4, 3, dtype=torch.bfloat16),
        "idx": torch.zeros(9, dtype=torch.int32),
    },
}
CALLS = 3


def filled(call: int, t: torch.Tensor) -> torch.Tensor:
    """A value per call that no other call and no zeroed file holds."""
    if t.dtype == torch.bool:
        return torch.ones_like(t) if call % 2 else torch.zeros_like(t)
    return torch.full_like(t, call + 1)


def made(tmp_path: Path) -> tuple[slots.SlotFile, slots.Slots, Path]:
    layout = slots.layout_of(ONE_SET, CALLS)
    path = tmp_path / "slots-0.bin"
    parent = slots.SlotFile(path, layout, owner=None)
    return parent, slots.map_file(str(path), layout), path


def test_every_tensor_starts_aligned_and_calls_do_not_overlap() -> None:
    layout = slots.layout_of(ONE_SET, CALLS)
    spans = sorted((f.offset, f.offset + f.nbytes) for f in layout.fields)
    assert all(start % slots.ALIGN == 0 for start, _ in spans)
    assert all(end <= nxt for (_, end), (nxt, _) in zip(spans, spans[1:], strict=False))
    assert spans[-1][1] <= layout.call_bytes and layout.call_bytes % slots.ALIGN == 0


def test_what_the_sandbox_writes_into_its_mapping_the_parent_reads(tmp_path: Path) -> None:
    parent, sandbox, _ = made(tmp_path)
    for call, slot in enumerate(sandbox):
        for part in slots.PARTS:
            for t in slot[part].values():
                t.copy_(filled(call, t))
    got = parent.read()
    for call, slot in enumerate(got):
        for part in slots.PARTS:
            assert set(slot[part]) == set(ONE_SET[part])
            for name, t in slot[part].items():
                want = ONE_SET[part][name]
                assert t.dtype == want.dtype and t.shape == want.shape
                assert torch.equal(t, filled(call, want)), (call, part, name)
    parent.close()


def test_last_read_is_the_read_not_what_was_written_since(tmp_path: Path) -> None:
    parent, sandbox, _ = made(tmp_path)
    with pytest.raises(slots.SlotsUnreadable):
        parent.last_read()  # nothing read yet: no stale zeros passed off as a round's outputs
    parent.read()
    sandbox[0]["outputs"]["out"].fill_(5)  # after the round's read, outside its clock
    assert torch.equal(parent.last_read()[0]["outputs"]["out"], torch.zeros(4, 3).bfloat16())
    assert torch.equal(parent.read()[0]["outputs"]["out"], torch.full((4, 3), 5).bfloat16())
    parent.close()


def test_a_file_cut_short_is_unreadable(tmp_path: Path) -> None:
    parent, _, path = made(tmp_path)
    os.truncate(path, parent.layout.total_bytes - 1)
    with pytest.raises(slots.SlotsUnreadable, match="holds"):
        parent.read()
    parent.close()


def test_a_file_put_in_its_place_is_not_read(tmp_path: Path) -> None:
    """The parent reads the file it made, whatever now has its name."""
    parent, sandbox, path = made(tmp_path)
    sandbox[1]["outputs"]["idx"].fill_(7)
    forged = tmp_path / "forged.bin"
    forged.write_bytes(b"\xff" * parent.layout.total_bytes)
    os.replace(forged, path)
    assert torch.equal(parent.read()[1]["outputs"]["idx"], torch.full((9,), 7, dtype=torch.int32))
    parent.close()


def test_the_parent_makes_the_file_and_never_follows_a_link(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere"
    target.write_bytes(b"")
    (tmp_path / "slots-0.bin").symlink_to(target)
    with pytest.raises(FileExistsError):
        slots.SlotFile(tmp_path / "slots-0.bin", slots.layout_of(ONE_SET, CALLS), owner=None)
    assert target.read_bytes() == b""


def open_slot_fds() -> list[str]:
    found = []
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue  # closed since the listing
        if "/slots-" in target:
            found.append(target)
    return found


def test_a_failure_while_making_the_files_lets_go_of_those_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The second benchmark's file fails after the first was made: _converse raised before its
    caller held the conversation, so nothing else would ever close the first descriptor."""
    from types import SimpleNamespace

    from gradinglab.runner import grader
    from gradinglab.runner.sandbox import Limits

    made = []

    class FailingSecond(slots.SlotFile):
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]
            made.append(self)
            if len(made) == 2:  # as a SlotFile failing inside its own setup: its fd closed
                self.close()
                raise OSError("the host failed after the open")

    monkeypatch.setattr(slots, "SlotFile", FailingSecond)
    one_set = {"inputs": {"x": torch.ones(8)}, "outputs": {"out": torch.zeros(8)}, "args": []}
    benches = [{"sets": [one_set, one_set], "mask_key": 1} for _ in range(2)]
    sandbox = SimpleNamespace(job_dir=tmp_path, uid=os.getuid())
    problem = SimpleNamespace(entry_name="f")
    with pytest.raises(OSError, match="after the open"):
        grader._converse(  # type: ignore[arg-type]
            sandbox, problem, "", "triton", torch.device("cpu"), Limits(), [], benches
        )
    assert len(made) == 2 and not open_slot_fds()
