"""Parse and validate content files (no database). A bad file raises ``ContentError`` naming the
file and line; the import service only touches the database once a whole file parsed cleanly."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from gradinglab.runner.yamlkeys import DuplicateKeyError, load_unique
from lectures.plaintext import plain_text  # noqa: F401  (re-exported: the import service uses it)
from lectures.rendering import RenderError, check_markdown

HEADING_RE = re.compile(r"^(?P<hashes>#{1,6}) (?P<text>.+?)\s*$")
NUMBERED_RE = re.compile(
    r"^(?P<num>\d+\.\d+(?:\.\d+)?) (?P<title>.+?)(?: \{#(?P<anchor>[\w-]+)\})?$"
)
FENCE_RE = re.compile(r"^ *```")
LINK_TARGET_RE = re.compile(r"\(sec:(?P<num>\d+\.\d+(?:\.\d+)?)\)")
LECTURE_KEYS = {"number": int, "title": str, "module": str, "overview": str}
# English names for English pages; a lecture without them shows its Chinese ones there.
# section_titles_en maps a section's number (a quoted "N.M": unquoted, 1.10 reads as the float 1.1)
# to its English title.
LECTURE_OPTIONAL_KEYS = {"title_en": str, "module_en": str, "section_titles_en": dict}
PAGE_KEYS = {"slug": str, "title": str}


class ContentError(ValueError):
    def __init__(self, path: Path | str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path, self.line, self.message = str(path), line, message


@dataclass
class ParsedSection:
    number: str
    title: str
    body_md: str
    line: int  # 1-based line of the heading in the file
    headings: list[str] = field(default_factory=list)
    title_en: str = ""

    @property
    def slug(self) -> str:
        return "sec-" + self.number.replace(".", "-")

    @property
    def level(self) -> int:
        return self.number.count(".") + 1

    @property
    def parent_number(self) -> str | None:
        return self.number.rsplit(".", 1)[0] if self.level == 3 else None

    @property
    def content_hash(self) -> str:
        return section_hash(self.title, self.body_md, self.title_en)


@dataclass
class ParsedLecture:
    path: Path
    number: int
    title: str
    module: str
    overview: str
    intro_md: str
    sections: list[ParsedSection]
    content_hash: str
    title_en: str = ""
    module_en: str = ""


@dataclass
class ParsedPage:
    path: Path
    slug: str
    title: str
    body_md: str
    content_hash: str
    links: dict[str, int]  # "N.M" -> first line that links to it


def section_hash(title: str, body_md: str, title_en: str = "") -> str:
    """What staff can edit on a section row. ``title_en`` joins the hash only when set, so a row
    imported before sections had English titles keeps the hash it was stored with: its next
    import (which brings the English title) is not taken for a staff edit."""
    parts = f"{title}\n\0{body_md}" + (f"\n\0{title_en}" if title_en else "")
    return hashlib.sha256(parts.encode()).hexdigest()


def lecture_header_hash(
    title: str, module: str, overview_md: str, intro_md: str, english: tuple[str, str] = ("", "")
) -> str:
    """What staff can edit on a lecture row (the sections have their own hashes).

    ``english`` (English title, English module) joins the hash only when set, so a row imported
    before lectures had English names keeps the hash it was stored with: its next import is not
    taken for a staff edit."""
    parts = (title, module, overview_md, intro_md) + (english if any(english) else ())
    return hashlib.sha256("\n\0".join(parts).encode()).hexdigest()


def _read(path: Path) -> str:
    raw = path.read_bytes()
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ContentError(path, raw[: exc.start].count(b"\n") + 1, "not valid UTF-8") from exc


def split_front_matter(
    path: Path, text: str, keys: dict[str, type], optional: dict[str, type] | None = None
) -> tuple[dict, list[str], int]:
    """(front matter, body lines, 1-based line number of the first body line).

    ``keys`` must all be there; ``optional`` ones may be left out but, when given, are checked
    the same way."""
    optional = optional or {}
    lines = text.split("\n")
    if not lines or lines[0].strip() != "---":
        raise ContentError(path, 1, "file must start with a '---' front matter block")
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        raise ContentError(path, 1, "front matter opened with '---' is never closed") from None
    try:
        meta = load_unique("\n".join(lines[1:end])) or {}
    except DuplicateKeyError as exc:
        first = exc.duplicates[0]  # lines counted from the front matter's first line, file line 2
        raise ContentError(
            path,
            first.line + 1,
            f"front matter key '{first.key}' is written again (first on line {first.first_line + 1})",
        ) from exc
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 2 if mark is not None else 1
        raise ContentError(path, line, f"front matter is not valid YAML: {exc}") from exc
    if not isinstance(meta, dict):
        raise ContentError(path, 2, "front matter must be a mapping of keys")
    for key, kind in {**keys, **{k: v for k, v in optional.items() if k in meta}}.items():
        value = meta.get(key)
        if not isinstance(value, kind) or isinstance(value, bool) or value in ("", None):
            raise ContentError(
                path, _key_line(lines, key, end), f"front matter needs '{key}' ({kind.__name__})"
            )
    unknown = sorted(set(meta) - set(keys) - set(optional))
    if unknown:
        raise ContentError(
            path, _key_line(lines, unknown[0], end), f"unknown front matter key '{unknown[0]}'"
        )
    return meta, lines[end + 1 :], end + 2


def _key_line(lines: list[str], key: str, end: int, *, nested: bool = False) -> int:
    """The 1-based line of front matter key ``key`` (lines 1 to ``end``), else 1. ``nested``: an
    indented entry of a mapping, its key quoted or not (section_titles_en's "3.1")."""
    starts = (f"{key}:", f'"{key}":', f"'{key}':") if nested else (f"{key}:",)
    for i in range(1, end):
        if (lines[i].lstrip() if nested else lines[i]).startswith(starts):
            return i + 1
    return 1


def _check_renders(path: Path, md: str, first_line: int) -> None:
    try:
        check_markdown(md)
    except RenderError as exc:
        raise ContentError(path, first_line + exc.line - 1, str(exc)) from exc


def _numbered_heading(
    path: Path, lineno: int, hashes: str, text: str, lecture: int
) -> ParsedSection | None:
    m = NUMBERED_RE.match(text)
    if len(hashes) == 2 and not m:
        raise ContentError(path, lineno, "a '##' heading must be a section: '## N.M 标题'")
    if not m or len(hashes) not in (2, 3):
        return None
    num = m["num"]
    if len(hashes) != num.count(".") + 1:
        raise ContentError(path, lineno, f"section {num} needs {'#' * (num.count('.') + 1)}")
    if int(num.split(".")[0]) != lecture:
        raise ContentError(path, lineno, f"section {num} does not belong to lecture {lecture}")
    expected = "sec-" + num.replace(".", "-")
    if m["anchor"] and m["anchor"] != expected:
        raise ContentError(path, lineno, f"anchor {{#{m['anchor']}}} must be {{#{expected}}}")
    return ParsedSection(number=num, title=m["title"], body_md="", line=lineno)


def parse_lecture(path: Path) -> ParsedLecture:
    text = _read(path)
    meta, body, first = split_front_matter(path, text, LECTURE_KEYS, LECTURE_OPTIONAL_KEYS)
    number = meta["number"]
    intro: list[str] = []
    sections: list[ParsedSection] = []
    current: list[str] = intro
    seen: dict[str, int] = {}
    fence_line = 0  # line of the open code fence, 0 when outside code
    for offset, line in enumerate(body):
        lineno = first + offset
        if fence_line and line.strip() == "```":
            fence_line = 0
        elif FENCE_RE.match(line):
            if fence_line:
                raise ContentError(path, fence_line, "code block opened with ``` is never closed")
            fence_line = lineno
        in_fence = bool(fence_line) or line.strip() == "```"
        m = None if in_fence else HEADING_RE.match(line)
        section = m and _numbered_heading(path, lineno, m["hashes"], m["text"], number)
        if not section:
            if m and sections:
                sections[-1].headings.append(m["text"])
            current.append(line)
            continue
        if section.number in seen:
            raise ContentError(
                path, lineno, f"section {section.number} already at line {seen[section.number]}"
            )
        if section.parent_number and section.parent_number not in seen:
            raise ContentError(
                path, lineno, f"section {section.number} comes before {section.parent_number}"
            )
        seen[section.number] = lineno
        sections.append(section)
        current = []
        section.body_md = ""  # filled below
        section._lines = current  # type: ignore[attr-defined]
    if fence_line:
        raise ContentError(path, fence_line, "code block opened with ``` is never closed")
    for section in sections:
        section.body_md = "\n".join(section._lines).strip() + "\n"  # type: ignore[attr-defined]
        _check_renders(path, section.body_md, section.line + 1)
    intro_md = "\n".join(intro).strip()
    _check_renders(path, intro_md, first)
    # first - 2: the index of the front matter's closing '---' (first: the body's first line).
    english = meta.get("section_titles_en", {})
    _attach_english_titles(path, text.split("\n"), first - 2, english, sections)
    return ParsedLecture(
        path=path,
        number=number,
        title=meta["title"],
        module=meta["module"],
        title_en=meta.get("title_en", ""),
        module_en=meta.get("module_en", ""),
        overview=meta["overview"],
        intro_md=intro_md,
        sections=sections,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
    )


def _attach_english_titles(
    path: Path, lines: list[str], end: int, titles: dict, sections: list[ParsedSection]
) -> None:
    """Give each section its English title from the front matter's ``section_titles_en``. A key
    that names no section of the file, or a title that is not text, is an error at its line
    (``lines``: the file's; ``end``: the index of the front matter's closing '---')."""
    by_number = {s.number: s for s in sections}
    for key, title in titles.items():
        line = _key_line(lines, str(key), end, nested=True)
        if not isinstance(key, str):
            raise ContentError(path, line, f'section_titles_en: quote the number {key!r} ("N.M")')
        if key not in by_number:
            raise ContentError(path, line, f"section_titles_en: no section {key} in this lecture")
        if not isinstance(title, str) or not title.strip():
            raise ContentError(path, line, f"section_titles_en: {key} needs a title (text)")
        by_number[key].title_en = title.strip()


def parse_page(path: Path) -> ParsedPage:
    text = _read(path)
    meta, body, first = split_front_matter(path, text, PAGE_KEYS)
    body_md = "\n".join(body).strip() + "\n"
    _check_renders(path, body_md, first)
    links: dict[str, int] = {}
    for offset, line in enumerate(body):
        for m in LINK_TARGET_RE.finditer(line):
            links.setdefault(m["num"], first + offset)
    return ParsedPage(
        path=path,
        slug=meta["slug"],
        title=meta["title"],
        body_md=body_md,
        content_hash=hashlib.sha256(text.encode()).hexdigest(),
        links=links,
    )
