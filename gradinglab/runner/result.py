"""The result document (schema v3): building it, capping every text field, validating it."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime
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

# Text caps in characters, not bytes. Logs are the tail end that matters most for students. The
# worker posts the document as ASCII-escaped JSON, up to 12 bytes per character (a character
# outside the BMP is two \u escapes): a capped document is not bounded below the web's 256 KiB
# (gradinglab.conf.RESULT_MAX_BYTES). One with both logs full of such characters is ~430 KB.
CAP_MESSAGE = 2000
CAP_TEST_MESSAGE = 500
CAP_LOG = 16_000
CAP_COMPILE_LOG = 16_000
CAP_NAME = 200
CAP_FLAG = 300
MAX_TESTS = 64
MAX_FLAGS = 16
MAX_KERNELS = 32

RESULT_SCHEMA: dict[str, Any] = json.loads(
    (Path(__file__).with_name("result_schema.json")).read_text(encoding="utf-8")
)


def cap_text(text: Any, limit: int) -> str:
    """Cut text to `limit` characters, saying how much was dropped (never silently)."""
    s = "" if text is None else str(text)
    if len(s) <= limit:
        return s
    note = f"\n… [truncated {len(s) - limit} characters]"
    return s[: max(0, limit - len(note))] + note


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
    doc["log"] = cap_text(doc.get("log", ""), CAP_LOG)
    doc["tests"] = [_cap_test(t) for t in doc.get("tests", [])[:MAX_TESTS]]
    doc["flags"] = [cap_text(f, CAP_FLAG) for f in doc.get("flags", [])[:MAX_FLAGS]]
    comp = doc.get("compile")
    if comp:
        comp["log"] = cap_text(comp.get("log", ""), CAP_COMPILE_LOG)
        if comp.get("ptxas"):
            comp["ptxas"]["kernels"] = comp["ptxas"]["kernels"][:MAX_KERNELS]
            for k in comp["ptxas"]["kernels"]:
                k["name"] = cap_text(k["name"], CAP_NAME)
    return doc


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
