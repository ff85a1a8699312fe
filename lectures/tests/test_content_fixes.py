"""Issue 16's lecture fixes stay fixed: the MPI↔NCCL table and the primitive table know NCCL
2.28's native Gather / Scatter / AlltoAll; the 7.5 self-note no longer seems to vouch for the
editor's table; the Online-Softmax pseudo-code is not labelled Python; the cheat sheet opens with
the notes' own line and its rows say what they mean and link where the text is."""

from __future__ import annotations

import re

from lectures.notes import read_notes
from lectures.tests.conftest import CONTENT, NOTES


def _lecture(number: int) -> str:
    return (CONTENT / "lectures" / f"lecture-{number:02d}.md").read_text(encoding="utf-8")


def _cheatsheet_row(start: str) -> str:
    sheet = (CONTENT / "course" / "cheatsheet.md").read_text(encoding="utf-8")
    (row,) = [line for line in sheet.splitlines() if line.startswith(f"| {start}")]
    return row


def test_nccl_tables_name_the_native_primitives() -> None:
    text = _lecture(10)
    assert "MPI 语义" not in text
    table = text.split("{#sec-10-3-3}", 1)[1].split("\n## ", 1)[0]
    for mpi, nccl in [("MPI_Alltoall", "ncclAlltoAll"), ("MPI_Gather", "ncclGather"),
                      ("MPI_Scatter", "ncclScatter")]:  # fmt: skip
        assert re.search(rf"`{mpi}` \| `{nccl}`（NCCL 2\.28 起", table), mpi
    primitives = text.split("{#sec-10-1-3}", 1)[1].split("{#sec-10-1-4}", 1)[0]
    assert all(f"`{name}`" in primitives for name in ("ncclGather", "ncclScatter", "ncclAlltoAll"))


def test_self_note_under_7_5_is_explained() -> None:
    text = _lecture(7)
    after = text.split("上表严格照抄课件第 6 页", 1)[1][:400]
    assert '!!! note "编者补充"' in after and "不是照抄课件" in after


def test_online_softmax_pseudo_code_is_not_tagged_python() -> None:
    text = _lecture(4)
    before = text[: text.index("m = -inf")]
    fence = before[before.rindex("```") :].split("\n", 1)[0]
    assert fence == "```text"


def test_cheatsheet_opens_with_the_notes_introduction_line() -> None:
    notes = read_notes(NOTES)
    intro = next(notes[i + 2] for i, line in enumerate(notes) if line.strip() == "考前速查")
    sheet = (CONTENT / "course" / "cheatsheet.md").read_text(encoding="utf-8")
    assert sheet.split("---\n", 2)[2].lstrip().startswith(intro.strip())


def test_cheatsheet_rows_fixed() -> None:
    bubble = _cheatsheet_row("流水线气泡率")
    assert "占总时间" in bubble and "相对理想时间" in bubble
    assert bubble.index("M+K-1") < bubble.index("相对理想时间")
    flash = _cheatsheet_row("FlashAttention HBM 访存")
    assert "额外显存" in flash and "Theta(N^2 d^2 / M)" in flash
    assert "(sec:4.11)" in _cheatsheet_row("标准实现 HBM 访存")
    assert "(sec:7.10)" in _cheatsheet_row("Hopper")
    blackwell = _cheatsheet_row("Blackwell")
    assert "(sec:7.12)" in blackwell and "(sec:7.13)" in blackwell
    assert "| 编者补充" in _cheatsheet_row("Online Softmax")
    assert "| 编者补充" in _cheatsheet_row("算子分类")
