"""Convert the plain-text course notes into one Markdown file per lecture.

Usage: ``.venv/bin/python -m lectures.convert_notes [NOTES] [OUT_DIR]``
(defaults: ``<repo>/content/source/course-notes.zh.txt`` and ``<repo>/content/lectures``).

Reproducible on purpose: every editorial change (code-block languages, 编者补充 supplements) lives
in this module or in ``notes_supplements.py``, so re-running the script regenerates the content.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from lectures.figures import BY_SECTION
from lectures.notes import (
    BULLET_RE,
    LECTURE_RE,
    NOTES_PATH,
    ORDERED_RE,
    SECTION_RE,
    CodeBlock,
    code_blocks,
    read_notes,
)
from lectures.notes_supplements import SUPPLEMENTS

REPO_ROOT = Path(__file__).resolve().parent.parent
DEFAULT_NOTES = NOTES_PATH
DEFAULT_OUT = REPO_ROOT / "content" / "lectures"

# The syllabus module table is lost in the notes; lectures are grouped by the reading order the
# notes give ("概念 → 单卡编程 → 算子优化 → 编译自动化 → 多卡分布式 → 通信"). Lecture 7 sits with
# 单卡编程 because lecture 2 defers "为张量核心编程" to a later lecture.
MODULES = {
    1: "概念",
    2: "单卡编程",
    3: "单卡编程",
    7: "单卡编程",
    4: "算子优化",
    5: "算子优化",
    8: "编译自动化",
    9: "多卡分布式",
    10: "通信",
}
# English names for English pages (the lecture text stays the notes' Chinese). Where the notes give
# a lecture's English title ("Lecture 05: Convolution, Nonlinear, and Operator Fusion", "Lecture 08:
# AI Compilers", "The Evolution of NVIDIA Tensor Cores") it is used as written; the others translate
# the Chinese title.
TITLES_EN = {
    1: "Introduction: Why Parallelism",
    2: "Heterogeneous Programming: CUDA Essentials",
    3: "CUDA by Example: Reduction and Tiled Convolution",
    4: "Attention and FlashAttention",
    5: "Convolution, Nonlinear, and Operator Fusion",
    7: "The Evolution of NVIDIA Tensor Cores",
    8: "AI Compilers",
    9: "Distributed Parallelism: Data / Tensor / Pipeline / Hybrid",
    10: "Communication Primitives, MPI and Collective Communication Libraries",
}
# English titles of the numbered sections, in a data file beside the notes (one entry per section).
SECTION_TITLES_EN_PATH = NOTES_PATH.parent / "section-titles.en.yaml"
NUMBERED_HEADING_RE = re.compile(r"^#{2,3} (\d+\.\d+(?:\.\d+)?) ", re.M)
MODULES_EN = {
    "概念": "Concepts",
    "单卡编程": "Single-GPU programming",
    "算子优化": "Operator optimization",
    "编译自动化": "Compilers and automation",
    "多卡分布式": "Multi-GPU distribution",
    "通信": "Communication",
}

MATH_RE = re.compile(r"\$\$.+?\$\$|\$.+?\$")
# Characters Markdown would otherwise read as markup in prose taken verbatim from the notes.
ESCAPE_RE = re.compile(r"([\\`*_\[\]>|])")
SOURCE_PREFIXES = ("图片来源", "课件图片来源", "示例来源", "视频来源", "来源", "课件引用")
SUBHEADING_MAX_CHARS = 40  # longer lines are sentences, not headings
TERMINAL_PUNCT = "。；！？，：:.;"


@dataclass
class Lecture:
    number: int
    title: str
    overview: str = ""
    body: list[str] = field(default_factory=list)


def _escape(text: str) -> str:
    # python-markdown has no backslash escape for "<"; an entity keeps "<<<grid, block>>>" text.
    return ESCAPE_RE.sub(r"\\\1", text).replace("<", "&lt;")


def escape_prose(text: str) -> str:
    """Escape Markdown markup in prose but leave ``$…$`` math untouched."""
    out, pos = [], 0
    for m in MATH_RE.finditer(text):
        out.append(_escape(text[pos : m.start()]))
        out.append(m.group(0))
        pos = m.end()
    out.append(_escape(text[pos:]))
    return "".join(out)


def guess_language(block: CodeBlock) -> str:
    text = block.text
    first = block.lines[0]
    if first.startswith("ldmatrix"):
        return "ptx"
    if "slots=" in first:
        return "text"  # an MPI hostfile
    if "m = -inf" in text:
        return "text"  # the Online-Softmax pseudo-code: Python-like, but not Python
    if first.startswith(("@", "def ")) or "tl." in text:
        return "python"
    if "for (m.outer" in text:
        return "text"  # TVM's lowered loop nest: pseudo-code, not C
    if "__global__" in text or "__shared__" in text or "<<<" in text or "threadIdx" in text:
        return "cuda"
    if "blockIdx" in text or "sdata" in text or "Ns[" in text or "P.elements" in text:
        return "cuda"
    return "c"


def is_subheading(line: str) -> bool:
    text = line.strip()
    return (
        len(text) <= SUBHEADING_MAX_CHARS
        and text[-1] not in TERMINAL_PUNCT
        and not text.startswith(SOURCE_PREFIXES)
        and text != "编者补充"
        and not text.startswith("$")
    )


def supplement_md(line: str) -> list[str]:
    extra = SUPPLEMENTS.get(line.strip())
    if not extra:
        return []
    indented = ["    " + row if row else "" for row in extra.strip("\n").splitlines()]
    return ["", '!!! note "编者补充"', *indented, ""]


def convert_line(line: str, level: int) -> tuple[list[str], int]:
    """Markdown for one prose line; returns (lines, heading level now in force)."""
    if m := SECTION_RE.match(line):
        num = m["num"]
        depth = num.count(".")  # 1 -> "N.M" (h2), 2 -> "N.M.K" (h3)
        anchor = "sec-" + num.replace(".", "-")
        hashes = "#" * (depth + 1)
        heading = ["", f"{hashes} {num} {escape_prose(m['title'])} {{#{anchor}}}", ""]
        # The section's diagrams (编者补充, lectures/figures/) right under its heading.
        figures = [f"!figure {figure.slug}" for figure in BY_SECTION.get(num, [])]
        return heading + [row for f in figures for row in (f, "")], depth + 1
    if m := BULLET_RE.match(line):
        nest = len(m["indent"]) // 2
        return ["    " * nest + "- " + escape_prose(m["text"].strip())], level
    if m := ORDERED_RE.match(line):
        return [f"{m['num']}. " + escape_prose(m["text"].strip())], level
    if line.startswith("  ") and not line.strip().startswith("$"):
        return ["    " + escape_prose(line.strip())], level  # continuation of a list item
    if is_subheading(line):
        hashes = "#" * min(level + 1, 4)
        return ["", f"{hashes} {escape_prose(line.strip())}", ""], level
    return ["", escape_prose(line.strip()), ""], level


def body_markdown(lines: list[str], blocks: dict[int, CodeBlock], start: int, end: int) -> str:
    out: list[str] = []
    level, i = 2, start
    while i < end:
        if i in blocks:
            block = blocks[i]
            out += ["", f"```{guess_language(block)}", *block.lines, "```", ""]
            i += len(block.lines)
            continue
        line = lines[i]
        if line.strip():
            md, level = convert_line(line, level)
            out += md
            out += supplement_md(line)
        i += 1
    return tidy("\n".join(out))


def tidy(text: str) -> str:
    """Collapse runs of blank lines (Markdown needs one) and strip the ends."""
    return re.sub(r"\n{3,}", "\n\n", text).strip() + "\n"


def split_lectures(lines: list[str]) -> list[tuple[int, int, int]]:
    """(lecture number, first line index, end index) for each lecture in the notes."""
    starts = [(i, int(m["num"])) for i, ln in enumerate(lines) if (m := LECTURE_RE.match(ln))]
    tail = next(i for i, ln in enumerate(lines) if ln.strip() == "互动自测")
    bounds = [s for s, _ in starts[1:]] + [tail]
    return [(num, s, e) for (s, num), e in zip(starts, bounds, strict=True)]


def section_titles_en(path: Path) -> dict[str, str]:
    titles = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    unquoted = [k for k in titles if not isinstance(k, str)]
    if unquoted:
        raise SystemExit(f"{path}: quote these section numbers: {unquoted}")
    return titles


def lecture_file(
    lines: list[str],
    blocks: dict[int, CodeBlock],
    span: tuple[int, int, int],
    english: dict[str, str],
) -> str:
    num, s, e = span
    title = LECTURE_RE.match(lines[s])["title"]  # type: ignore[index]
    i = s + 1
    while not lines[i].strip():
        i += 1
    overview = escape_prose(lines[i].strip())
    body = body_markdown(lines, blocks, i + 1, e)
    numbers = NUMBERED_HEADING_RE.findall(body)
    missing = [n for n in numbers if n not in english]
    if missing:
        raise SystemExit(f"{SECTION_TITLES_EN_PATH.name}: no English title for {missing}")
    front = {
        "number": num,
        "title": title,
        "title_en": TITLES_EN[num],
        "module": MODULES[num],
        "module_en": MODULES_EN[MODULES[num]],
        "overview": overview,
        "section_titles_en": {n: english[n] for n in numbers},
    }
    head = yaml.safe_dump(front, allow_unicode=True, sort_keys=False, width=10_000)
    return f"---\n{head}---\n\n" + body


def convert(notes: Path, out_dir: Path) -> list[Path]:
    lines = read_notes(notes)
    blocks = {b.start: b for b in code_blocks(lines)}
    missing = [k for k in SUPPLEMENTS if k not in {ln.strip() for ln in lines}]
    if missing:
        raise SystemExit(f"supplement anchors not found in the notes: {missing}")
    english = section_titles_en(SECTION_TITLES_EN_PATH)
    texts = {
        num: lecture_file(lines, blocks, (num, s, e), english)
        for num, s, e in split_lectures(lines)
    }
    used = {n for text in texts.values() for n in NUMBERED_HEADING_RE.findall(text)}
    if set(english) - used:
        raise SystemExit(
            f"{SECTION_TITLES_EN_PATH.name}: no such sections: {sorted(set(english) - used)}"
        )
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for num, text in texts.items():
        path = out_dir / f"lecture-{num:02d}.md"
        path.write_text(text, encoding="utf-8")
        written.append(path)
    return written


def main(argv: list[str]) -> None:
    notes = Path(argv[1]) if len(argv) > 1 else DEFAULT_NOTES
    out_dir = Path(argv[2]) if len(argv) > 2 else DEFAULT_OUT
    for path in convert(notes, out_dir):
        print(path)


if __name__ == "__main__":
    main(sys.argv)
