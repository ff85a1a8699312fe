"""The result document (schema v3): building it, capping every text field, validating it."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache
from pathlib import Path
from typing import Any

from .messages import parts_of

SCHEMA_VERSION = 3  # v3 adds message_parts; the web still takes v2 from workers not yet updated
RUNNER_VERSION = "3.0.0"

STATUSES = (
    "accepted",
    "wrong_answer",
    "compile_error",
    "runtime_error",
    "timeout",
    "memory_limit",
    "rejected",
    "needs_gpu",
    "infrastructure_error",
)

# Text caps in characters (the schema's maxLength). The worker posts the document as
# ASCII-escaped JSON (wire_bytes), up to 12 bytes per character (a character outside the BMP is
# two \u escapes), so these alone do not bound its size: one with both logs full of such
# characters was ~430 KB. finish() then bounds the bytes too (fit_wire_size).
CAP_MESSAGE = 2000
CAP_TEST_MESSAGE = 500
CAP_LOG = 16_000
CAP_COMPILE_LOG = 16_000
CAP_NAME = 200
CAP_FLAG = 300
MAX_TESTS = 64
MAX_FLAGS = 16
MAX_KERNELS = 32

# Bytes. The web refuses a result body above RESULT_MAX_BYTES (HTTP 400, which the worker never
# retries); gradinglab.conf takes its limit from here and may only raise it. finish() keeps the
# document's wire form within DOC_MAX_BYTES; the margin is for what joins it after finish(): the
# body's {"job_token": ...} envelope (a token is at most 200 characters, api.ResultIn) and the
# score and elapsed_s that grade() adds, under 1 KiB together (test_runner_units measures a maximal
# document's body).
RESULT_MAX_BYTES = 256 * 1024
RESULT_MARGIN_BYTES = 4 * 1024
DOC_MAX_BYTES = RESULT_MAX_BYTES - RESULT_MARGIN_BYTES

RESULT_SCHEMA: dict[str, Any] = json.loads(
    (Path(__file__).with_name("result_schema.json")).read_text(encoding="utf-8")
)


def cap_text(text: Any, limit: int, *, tail: bool = False) -> str:
    """Cut text to `limit` characters, saying how many were cut (never silently). With `tail`,
    keep its head and its tail: a log's error (a traceback, the compiler's last lines) is usually
    at its end, which a cut keeping the head alone dropped."""
    s = "" if text is None else str(text)
    return cut_text(s, limit, CHARACTERS, _truncated, tail=tail)


def _truncated(cut_chars: int) -> str:
    return f"\n… [truncated {cut_chars} characters] …\n"


def finite_or_none(value: Any) -> float | None:
    """JSON has no NaN/inf: non-finite numbers become null (the message says why)."""
    if value is None:
        return None
    f = float(value)
    return f if math.isfinite(f) else None


def new_document(*, slug: str, backend: str, path: str) -> dict[str, Any]:
    return {
        "schema_version": SCHEMA_VERSION,
        "runner_version": RUNNER_VERSION,
        "problem": cap_text(slug, CAP_NAME),
        "backend": backend,
        "path": path,
        "status": "infrastructure_error",
        "gradable": False,
        "message": "",
        "tests": [],
        "compile": None,
        "timing": None,
        "score": None,
        "device": {
            "kind": "cpu",
            "name": "cpu",
            "peak_gbps": None,
            "peak_tflops": None,
            "peak_source": None,
        },
        "flags": [],
        "log": "",
        "elapsed_s": 0.0,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def finish(doc: dict[str, Any], *, status: str, message: str) -> dict[str, Any]:
    """Set the verdict and enforce every cap; the one exit path for documents."""
    assert status in STATUSES, status
    doc["status"] = status
    doc["gradable"] = status != "infrastructure_error"
    _set_message(doc, message, CAP_MESSAGE)
    doc["log"] = cap_text(doc.get("log", ""), CAP_LOG, tail=True)
    doc["tests"] = [_cap_test(t) for t in doc.get("tests", [])[:MAX_TESTS]]
    doc["flags"] = [cap_text(f, CAP_FLAG) for f in doc.get("flags", [])[:MAX_FLAGS]]
    comp = doc.get("compile")
    if comp:
        comp["log"] = cap_text(comp.get("log", ""), CAP_COMPILE_LOG, tail=True)
        if comp.get("ptxas"):
            comp["ptxas"]["kernels"] = comp["ptxas"]["kernels"][:MAX_KERNELS]
            for k in comp["ptxas"]["kernels"]:
                k["name"] = cap_text(k["name"], CAP_NAME)
    fit_wire_size(doc, DOC_MAX_BYTES)
    return doc


def wire_bytes(value: Any) -> bytes:
    """The body a worker posts (gradinglab.worker.client): JSON with non-ASCII as \\u escapes, so
    any string encodes (a lone surrogate too) and every byte bound here is of this form."""
    return json.dumps(value).encode()


def fit_wire_size(doc: dict[str, Any], limit_bytes: int) -> None:
    """Shorten the texts a submission can fill until ``wire_bytes(doc)`` is at most `limit_bytes`:
    the longest first, each cut to one common length in wire bytes (the highest that fits). A
    document posted over the web's limit would be lost and the run would cost the student nothing.

    Only texts a submission's output reaches are cut; test and benchmark names stay whole, since the
    web matches them against the problem (result_check). Those and every other field are bounded in
    number and length by finish() and the schema: test_runner_units fills all of them and checks
    the body still fits."""
    over = len(wire_bytes(doc)) - limit_bytes
    if over <= 0:
        return
    slots = _student_texts(doc)
    sizes = [_wire_len(holder[key]) for holder, key in slots]
    level = _highest_level(sizes, sum(sizes) - over)
    for (holder, key), size in zip(slots, sizes, strict=True):
        if size > level:
            holder[key] = cut_to_wire(holder[key], level)
            if key == "message":  # its parts would no longer spell it (_set_message)
                holder.pop("message_parts", None)


def _student_texts(doc: dict[str, Any]) -> list[tuple[Any, Any]]:
    """(container, key) of each text in `doc` that a submission's output can fill."""
    slots: list[tuple[Any, Any]] = [(doc, "message"), (doc, "log")]
    slots += [(t, "message") for t in doc.get("tests", [])]
    slots += [(doc["flags"], i) for i in range(len(doc.get("flags", [])))]
    comp = doc.get("compile") or {}
    if "log" in comp:
        slots.append((comp, "log"))
    slots += [(k, "name") for k in (comp.get("ptxas") or {}).get("kernels", [])]
    return slots


def _highest_level(sizes: list[int], budget: int) -> int:
    """The largest L >= 0 with sum(min(size, L)) <= budget: every size above L is cut to L."""
    low, high = 0, max(sizes, default=0)
    while low < high:
        mid = (low + high + 1) // 2
        if sum(min(size, mid) for size in sizes) <= budget:
            low = mid
        else:
            high = mid - 1
    return low


def cut_to_wire(text: str, budget_bytes: int) -> str:
    """`text` in at most `budget_bytes` wire bytes (without its quotes) and no more characters than
    it had (its cap), head and tail kept (cut_text)."""
    return cut_text(text, budget_bytes, WIRE_BYTES, _cut_marker, tail=True)


def _cut_marker(cut_chars: int) -> str:
    return f"\n… [{cut_chars} characters cut: the result must fit the web's size limit] …\n"


def cut_text(
    text: str, budget: int, measure: Measure, marker: Callable[[int], str], *, tail: bool
) -> str:
    """`text` within `budget` (as `measure` counts it) and no longer than it was: its head and, with
    `tail`, its tail (the head has the larger half) around `marker(n)`, which says how many
    characters (n) were cut, so a cut is never silent. A budget too small for the marker leaves
    "…", or nothing."""
    if measure.text(text) <= budget:
        return text
    widest = marker(len(text))  # no cut of this text needs a longer marker
    room, keep = budget - measure.text(widest), len(text) - len(widest)  # budget units, characters
    if room < 0 or keep < 0:
        return "…" if measure.text("…") <= budget else ""
    head = min(_fitting(map(measure.char, text), _head_share(room, tail)), _head_share(keep, tail))
    end = 0  # characters kept from the end
    if tail:
        end_room = room - measure.text(text[:head])
        end = min(_fitting(map(measure.char, reversed(text)), end_room), keep - head)
    return text[:head] + marker(len(text) - head - end) + text[len(text) - end :]


def _head_share(amount: int, tail: bool) -> int:
    return amount - amount // 2 if tail else amount


def _fitting(costs: Iterable[int], room: int) -> int:
    """How many of `costs`, from the first, add up to at most `room`."""
    count = 0
    for cost in costs:
        room -= cost
        if room < 0:
            break
        count += 1
    return count


def _wire_len(text: str) -> int:
    return len(json.dumps(text)) - 2  # ASCII output: characters are bytes; less the two quotes


@lru_cache(maxsize=4096)
def _char_wire_len(char: str) -> int:
    return _wire_len(char)


@dataclass(frozen=True)
class Measure:
    """How a budget counts a text: whole (the fast check), and one character at a time (to place a
    cut). The two agree: a text costs the sum of its characters."""

    text: Callable[[str], int]
    char: Callable[[str], int]


CHARACTERS = Measure(text=len, char=len)
WIRE_BYTES = Measure(text=_wire_len, char=_char_wire_len)  # as wire_bytes() posts them


def _set_message(d: dict[str, Any], message: str, limit: int) -> None:
    """The English text, capped, and beside it the parts the web translates (messages.py): kept
    only when the text fits, since parts must spell exactly what the text says. Finishing again
    with the stored text keeps the stored parts."""
    old_parts = d.get("message_parts") if message == d.get("message") else None
    parts = parts_of(message) or old_parts or []
    d["message"] = cap_text(message, limit)
    if parts and len(str(message)) <= limit:
        d["message_parts"] = parts
    else:
        d.pop("message_parts", None)


def _cap_test(t: dict[str, Any]) -> dict[str, Any]:
    t["name"] = cap_text(t.get("name", ""), CAP_NAME)
    _set_message(t, t.get("message", ""), CAP_TEST_MESSAGE)
    for key in ("max_abs_error", "max_rel_error"):
        t[key] = finite_or_none(t.get(key))
    return t


def validate(doc: Any) -> None:
    """Raise jsonschema.ValidationError when the document breaks the schema, formats included.

    jsonschema checks "format" only when given a format checker; "date-time" needs the
    rfc3339-validator package, without which the checker would pass any string.
    """
    import jsonschema

    checker = jsonschema.Draft202012Validator.FORMAT_CHECKER
    jsonschema.validate(doc, RESULT_SCHEMA, format_checker=checker)
