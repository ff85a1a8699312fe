"""What a submission's source must be, checked once for every door it comes through: the web
form, the API and editor drafts (gradinglab.services.submissions, gradinglab.drafts) and the runner
itself (a job straight from the broker). Django-free; each caller words the refusal for its reader.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

MAX_SOURCE_BYTES = 256 * 1024  # bytes (UTF-8): a kernel file; anything bigger is not a submission


class SourceProblem(StrEnum):
    NOT_TEXT = "not_text"
    TOO_LARGE = "too_large"
    NUL = "nul"
    EMPTY = "empty"


def source_problem(source: Any, *, allow_empty: bool = False) -> SourceProblem | None:
    """The first thing wrong with `source`, or None (drafts may be empty; submissions may not)."""
    if not isinstance(source, str):
        return SourceProblem.NOT_TEXT
    if len(source.encode("utf-8", "replace")) > MAX_SOURCE_BYTES:
        return SourceProblem.TOO_LARGE
    if "\x00" in source:
        return SourceProblem.NUL
    if not allow_empty and not source.strip():
        return SourceProblem.EMPTY
    return None
