"""The archive file: fingerprints of earlier terms, for comparing this term's submissions with them.

It holds hashes only, never code, student names, user ids or submission ids: each entry gets a
random `ref`. Reading it is strict (a malformed file is refused whole, with a message that says
what is wrong), because a half-imported archive would silently miss matches.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from similarity import conf

FORMAT = "pdclab-similarity-archive"
VERSION = 1
MAX_BYTES = 20 * 1024 * 1024  # 20 MiB: about 60 000 submissions' fingerprints
MAX_ENTRIES = 100_000
MAX_HASHES_PER_ENTRY = 20_000  # a 64 KiB source (the lab's cap) yields far fewer
TERM_RE = re.compile(r"^[\w.\- ]{1,40}$")
SLUG_RE = re.compile(r"^[a-z0-9][a-z0-9-]{0,79}$")
REF_RE = re.compile(r"^[0-9a-f]{8,32}$")
BACKENDS = ("triton", "cuda")


class ArchiveError(ValueError):
    """The file is not a usable archive; the message says why (shown to staff)."""


@dataclass(frozen=True)
class Entry:
    problem: str
    backend: str
    ref: str
    hashes: frozenset[int]


def document(*, term: str, entries: list[Entry]) -> dict[str, Any]:
    return {
        "format": FORMAT,
        "version": VERSION,
        "algorithm": conf.ALGORITHM,
        "term": term,
        "entries": [
            {"problem": e.problem, "backend": e.backend, "ref": e.ref, "hashes": sorted(e.hashes)}
            for e in entries
        ],
    }


def term_check(term: str) -> str:
    term = (term or "").strip()
    if not TERM_RE.match(term):
        raise ArchiveError(_("学期名称须为 1–40 个字母、数字、空格、点或连字符，例如 2025-fall。"))
    return term


def parse(raw: bytes) -> tuple[str, list[Entry]]:
    """(term, entries) of an archive file, or ArchiveError."""
    if len(raw) > MAX_BYTES:
        raise ArchiveError(_("归档文件超过 %(mib)d MiB。") % {"mib": MAX_BYTES // (1024 * 1024)})
    try:
        data = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        # RecursionError: arrays nested thousands deep (10 KB of "[") exhaust the parser's stack
        raise ArchiveError(_("归档文件不是 UTF-8 编码的 JSON。")) from exc
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ArchiveError(_("这不是 PDC Lab 的相似度指纹归档（format 字段不对）。"))
    if data.get("version") != VERSION:
        raise ArchiveError(_("不支持的归档版本：%(v)s。") % {"v": data.get("version")})
    if data.get("algorithm") != conf.ALGORITHM:
        raise ArchiveError(
            _("归档用另一种指纹算法生成（%(got)s，本系统为 %(want)s），无法比较。")
            % {"got": data.get("algorithm"), "want": conf.ALGORITHM}
        )
    term = term_check(str(data.get("term", "")))
    entries = data.get("entries")
    if not isinstance(entries, list) or len(entries) > MAX_ENTRIES:
        raise ArchiveError(_("entries 必须是列表，且最多 %(n)d 条。") % {"n": MAX_ENTRIES})
    return term, [_entry(item, n) for n, item in enumerate(entries, start=1)]


def _entry(item: Any, n: int) -> Entry:
    if not isinstance(item, dict) or set(item) != {"problem", "backend", "ref", "hashes"}:
        raise ArchiveError(
            _("第 %(n)d 条应只有 problem、backend、ref、hashes 四个字段。") % {"n": n}
        )
    problem, backend, ref, hashes = item["problem"], item["backend"], item["ref"], item["hashes"]
    if not (isinstance(problem, str) and SLUG_RE.match(problem)):
        raise ArchiveError(_("第 %(n)d 条的题目短名无效。") % {"n": n})
    if backend not in BACKENDS:
        raise ArchiveError(_("第 %(n)d 条的后端无效。") % {"n": n})
    if not (isinstance(ref, str) and REF_RE.match(ref)):
        raise ArchiveError(_("第 %(n)d 条的匿名编号无效。") % {"n": n})
    if not isinstance(hashes, list) or len(hashes) > MAX_HASHES_PER_ENTRY:
        raise ArchiveError(_("第 %(n)d 条的指纹不是列表或过长。") % {"n": n})
    if not all(type(h) is int and 0 <= h < 2**63 for h in hashes):
        raise ArchiveError(_("第 %(n)d 条的指纹必须是 0…2^63 之间的整数。") % {"n": n})
    return Entry(problem, backend, ref, frozenset(hashes))
