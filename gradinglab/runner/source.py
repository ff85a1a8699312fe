"""What a submission's source must be, checked once for every door it comes through: the web
form, the API and editor drafts (gradinglab.services.submissions, gradinglab.drafts) and the runner
itself (a job straight from the broker); and an uploaded file's name (the web form: `file_fits`).
Django-free; each caller words the refusal for its reader.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

MAX_SOURCE_BYTES = 256 * 1024  # bytes (UTF-8): a kernel file; anything bigger is not a submission
# The file each backend's source comes in: the upload field's accept list, the starters' names.
FILE_SUFFIXES = {"triton": ".py", "cuda": ".cu"}


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


def file_fits(filename: str, backend: str) -> bool:
    """An uploaded file is named as the backend's kind of source (case aside: Windows may save
    `K.PY`). An unknown backend passes: the backend check refuses it, naming the ones offered."""
    suffix = FILE_SUFFIXES.get(backend)
    return suffix is None or filename.lower().endswith(suffix)
