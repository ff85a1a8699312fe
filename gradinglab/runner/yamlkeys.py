"""Safe YAML loading that refuses a mapping with a key written twice.

PyYAML keeps the last value of a repeated key without a word: a TA who writes `answer:` twice in a
question, or lists one exploit twice in a manifest, loses one of them silently. Staff-written YAML
(question banks, problem packages) is read with ``load_unique``, which still builds only plain
objects (SafeLoader) and names every repeated key with its line. Here in the runner, which
imports nothing outside its package (the sandbox's harness imports problems.py, and it sees only
gradinglab/): the web side (quizzes.bank) reads with the same loader.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import yaml

_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class DuplicateKey:
    key: str  # as written in the file
    line: int  # 1-based: where it is written again
    first_line: int  # 1-based: where it was written first


class DuplicateKeyError(yaml.YAMLError):
    """Every repeated key of a document, in the order they are written."""

    def __init__(self, duplicates: list[DuplicateKey]) -> None:
        self.duplicates = duplicates
        super().__init__(
            "; ".join(
                f"line {d.line}: key {d.key!r} is written again (first on line {d.first_line})"
                for d in duplicates
            )
        )


class UniqueKeySafeLoader(yaml.SafeLoader):
    """SafeLoader that notes (in ``duplicates``) each key a mapping holds twice."""

    def __init__(self, stream: Any) -> None:
        super().__init__(stream)
        self.duplicates: list[DuplicateKey] = []

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        # Before SafeLoader flattens merge keys (`<<: *defaults`): a key that overrides a merged
        # one is YAML's way of changing a default, not a repeat.
        first: dict[Any, int] = {}
        for key_node, _value in node.value:
            if key_node.tag == _MERGE_TAG:
                continue
            key = self.construct_object(key_node, deep=deep)
            try:
                seen = first.get(key)
            except TypeError:  # an unhashable key: SafeLoader's own error names it
                continue
            line = key_node.start_mark.line + 1
            if seen is None:
                first[key] = line
            else:
                written = key_node.value if isinstance(key_node.value, str) else str(key)
                self.duplicates.append(DuplicateKey(written, line, seen))
        return super().construct_mapping(node, deep=deep)


def load_unique(text: str) -> Any:
    """The document in ``text`` as ``yaml.safe_load`` reads it, or ``DuplicateKeyError`` naming
    every key written twice in one mapping (other YAML errors are raised as they are)."""
    loader = UniqueKeySafeLoader(text)
    try:
        data = loader.get_single_data()
    finally:
        loader.dispose()
    if loader.duplicates:
        raise DuplicateKeyError(loader.duplicates)
    return data
