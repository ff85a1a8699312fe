"""Errors shared by the apps."""

from __future__ import annotations


class LineErrors(ValueError):
    """An uploaded file is refused as a whole; ``errors`` lists (line number, reason) per bad line."""

    def __init__(self, errors: list[tuple[int, str]]):
        self.errors = errors
        super().__init__("; ".join(f"line {line}: {reason}" for line, reason in errors))
