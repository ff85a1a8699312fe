"""Parser for the plain-text course notes (``content/source/course-notes.zh.txt``).

The notes are plain text without markup: lecture headings (``第 N 讲 · …``), numbered section
headings (``N.M …`` / ``N.M.K …``), short sub-heading lines, ``•`` bullets (nested by two spaces)
and code pasted verbatim. This module recognises those shapes; it is shared by the converter
(notes -> Markdown) and by the coverage tests (notes -> what must appear on the site), so both
agree on what a heading or a code block is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

# The notes live in the repository (a clone needs nothing beside it); the single path every
# converter, importer and test reads.
NOTES_PATH = Path(__file__).resolve().parent.parent / "content" / "source" / "course-notes.zh.txt"

LECTURE_RE = re.compile(r"^第 (?P<num>\d+) 讲 · (?P<title>.+)$")
SECTION_RE = re.compile(r"^(?P<num>\d+\.\d+(?:\.\d+)?) (?P<title>\S.*)$")
BULLET_RE = re.compile(r"^(?P<indent> *)• ?(?P<text>.*)$")
ORDERED_RE = re.compile(r"^(?P<indent> *)(?P<num>\d+)\. (?P<text>.+)$")

# A line that starts with one of these at column 0 is code, not prose. The notes never start a
# prose line with such tokens (checked against the whole file by the coverage tests).
CODE_START_RE = re.compile(
    r"^(//|/\*|#include|# |__global__|__kernel|void |int |float |unsigned |if \(|for \(|"
    r"while ?\(|extern |dim3 |return |\}|\{$|for \w[\w, ]* in .*:$|\w+<<<|@triton\.jit|@jit|def |m = -inf|grid = |"
    r"add\[|s = tl\.|ldmatrix\.|\.(shape|num|ss|type) +=|host_\w+ +slots=|"
    r"[A-Za-z_][\w.\[\]]* = .*;$|[A-Za-z_]\w*\(.*\);$)"
)
# Lines that open a code block only when followed by indented code (a signature on its own).
SIG_RE = re.compile(r"^(\w[\w ]*\(|for \(|if \()")


@dataclass
class CodeBlock:
    start: int  # 0-based index of the first line in the notes
    lines: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


def read_notes(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines()


def is_code_line(line: str) -> bool:
    """True when a single line looks like code (indented non-bullet, or a code token)."""
    if not line.strip():
        return False
    if BULLET_RE.match(line) or ORDERED_RE.match(line):
        return False
    if line.startswith("    ") or line.startswith("\t"):
        return True
    if line.startswith(" ") and not line.startswith("  $"):
        # One-space indentation appears only inside pasted loop nests (8.11).
        return not line.startswith("  ") or line.lstrip()[:1] in "{}(Cacf"
    return bool(CODE_START_RE.match(line))


def _block_continues(lines: list[str], i: int) -> bool:
    """Whether line i (after a code line) still belongs to the current code block."""
    line = lines[i]
    if is_code_line(line):
        return True
    if not line.strip():
        # A blank line inside a block: continue if the next non-blank line is code.
        j = i + 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        return j < len(lines) and is_code_line(lines[j]) and not _is_heading_like(lines[j])
    return False


def _is_heading_like(line: str) -> bool:
    return bool(LECTURE_RE.match(line) or SECTION_RE.match(line))


def _starts_block(lines: list[str], i: int) -> bool:
    line = lines[i]
    if not is_code_line(line):
        # A bare signature line like ``void addData256(`` opens a block when indented code follows.
        return bool(
            SIG_RE.match(line)
            and i + 1 < len(lines)
            and lines[i + 1].startswith("    ")
            and not line.endswith("。")
        )
    return not line.startswith(" ") or i == 0 or not lines[i - 1].strip()


def code_blocks(lines: list[str]) -> list[CodeBlock]:
    """All code blocks of the notes, in order; blank lines inside a block are kept."""
    blocks: list[CodeBlock] = []
    i = 0
    while i < len(lines):
        if _starts_block(lines, i) and not _is_heading_like(lines[i]):
            block = CodeBlock(start=i, lines=[lines[i]])
            i += 1
            while i < len(lines) and _block_continues(lines, i):
                block.lines.append(lines[i])
                i += 1
            while block.lines and not block.lines[-1].strip():
                block.lines.pop()
            blocks.append(block)
            continue
        i += 1
    return blocks


def code_line_indexes(lines: list[str]) -> set[int]:
    indexes: set[int] = set()
    for block in code_blocks(lines):
        indexes.update(range(block.start, block.start + len(block.lines)))
    return indexes


def lecture_headings(lines: list[str]) -> list[tuple[int, str]]:
    """(lecture number, title) for every ``第 N 讲 · 标题`` line."""
    return [(int(m["num"]), m["title"]) for line in lines if (m := LECTURE_RE.match(line))]


def section_headings(lines: list[str]) -> list[tuple[str, str]]:
    """(number, title) for every ``N.M`` / ``N.M.K`` heading line outside code."""
    in_code = code_line_indexes(lines)
    found = []
    for i, line in enumerate(lines):
        if i in in_code:
            continue
        if m := SECTION_RE.match(line):
            found.append((m["num"], m["title"]))
    return found
