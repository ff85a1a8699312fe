"""Token fingerprints of a Triton (Python) or CUDA source: Pygments tokens, identifiers and
literals normalised, k-grams hashed, winnowed.

Pure Python, no Django. Why not copydetect (0.5.0, which the issue suggested): it hashes k-grams
with Python's built-in `hash()`, which is salted per process (PYTHONHASHSEED), so fingerprints
exported one term never match those computed the next; it keeps numbers verbatim (a changed
constant breaks every k-gram around it); and importing it pulls matplotlib and tqdm into the web
process. The algorithm here is the same family (MOSS's winnowing) with a stable hash.

Normalisation: every name a student chooses becomes `V`, every number `N`, every string `S`;
comments, docstrings, preprocessor lines and whitespace are dropped. Kept verbatim: keywords and
operators, built-ins (`range`, `threadIdx`), decorators (`@triton.jit`) and a name right after
`.` or `->` (`tl.load`, `blockIdx.x`): API a copier cannot rename, which keeps two independent
kernels that call different primitives apart.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from pygments.lexer import Lexer
from pygments.lexers import CudaLexer, PythonLexer
from pygments.token import Comment, Keyword, Name, Number, String, Text, _TokenType

from similarity import conf

_HASH_MASK = (1 << 63) - 1  # 63 bits: fits a signed 64-bit integer column and JSON readers


@dataclass(frozen=True)
class Token:
    symbol: str  # the normalised token (`V`, `N`, `S`, a keyword, an operator, an API name)
    start: int  # character offsets of the original text in the source
    end: int


def _lexer(backend: str) -> Lexer:
    return CudaLexer() if backend == "cuda" else PythonLexer()


_KINDS: dict[_TokenType, str] = {}  # token type -> how it is normalised (a lookup per token)


def _kind(ttype: _TokenType) -> str:
    kind = _KINDS.get(ttype)
    if kind is None:
        if ttype in Comment or ttype in Text or ttype in String.Doc:
            kind = "skip"
        elif ttype in Keyword or ttype in Name.Builtin or ttype in Name.Decorator:
            kind = "keep"
        elif ttype in Name:
            kind = "name"
        elif ttype in Number:
            kind = "N"
        elif ttype in String:
            kind = "S"
        else:
            kind = "keep"
        _KINDS[ttype] = kind
    return kind


def tokens(source: str, backend: str) -> list[Token]:
    """The normalised tokens of a source, each with where it stands in the original text."""
    out: list[Token] = []
    previous = ""
    for start, ttype, value in _lexer(backend).get_tokens_unprocessed(source):
        kind = _kind(ttype)
        if kind == "skip" or not value.strip():
            continue
        if kind == "keep":
            symbol = value.strip()
        elif kind == "name":
            symbol = value.strip() if previous in (".", "->") else "V"
        else:
            symbol = kind
        # A string arrives in pieces (quote, body, quote, f-string parts): one S for all of them.
        if symbol == "S" and previous == "S":
            out[-1] = Token("S", out[-1].start, start + len(value))
            continue
        out.append(Token(symbol, start, start + len(value)))
        previous = symbol
    return out


def kgram_hashes(toks: list[Token], k: int = conf.K) -> list[int]:
    """The stable hash of each k-gram, by its first token's index."""
    symbols = [t.symbol for t in toks]
    return [_hash("\x1f".join(symbols[i : i + k])) for i in range(len(symbols) - k + 1)]


def _hash(text: str) -> int:
    digest = hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") & _HASH_MASK


def winnow(hashes: list[int], window: int = conf.WINDOW) -> dict[int, list[int]]:
    """Robust winnowing: the minimum of every window (the rightmost on ties), as hash -> the
    k-gram positions it was picked at. A text shorter than one window keeps all its k-grams."""
    picked: dict[int, list[int]] = {}
    if len(hashes) < window:
        for pos, value in enumerate(hashes):
            picked.setdefault(value, []).append(pos)
        return picked
    last = -1
    for left in range(len(hashes) - window + 1):
        block = hashes[left : left + window]
        low = min(block)
        pos = left + max(i for i, value in enumerate(block) if value == low)
        if pos != last:
            picked.setdefault(low, []).append(pos)
            last = pos
    return picked


def fingerprints(source: str, backend: str) -> frozenset[int]:
    """The winnowed fingerprint set of a source (what runs compare and archives keep)."""
    return frozenset(winnow(kgram_hashes(tokens(source, backend))))


def all_kgrams(source: str, backend: str) -> frozenset[int]:
    """Every k-gram hash of a source: what excluding the starter and published solutions uses,
    so that none of their k-grams survives in a submission whatever winnowing picked there."""
    return frozenset(kgram_hashes(tokens(source, backend)))


def shared_spans(
    source: str, backend: str, other: frozenset[int], *, ignore: frozenset[int] = frozenset()
) -> list[tuple[int, int]]:
    """Character ranges of `source` covered by a k-gram whose hash is in `other` (and not in
    `ignore`), merged: the regions the review page highlights."""
    toks = tokens(source, backend)
    covered = [False] * len(toks)
    for i, value in enumerate(kgram_hashes(toks)):
        if value in other and value not in ignore:
            covered[i : i + conf.K] = [True] * min(conf.K, len(toks) - i)
    spans: list[tuple[int, int]] = []
    for tok, hit in zip(toks, covered, strict=True):
        if not hit:
            continue
        if spans and _only_space_between(source, spans[-1][1], tok.start):
            spans[-1] = (spans[-1][0], tok.end)
        else:
            spans.append((tok.start, tok.end))
    return spans


def _only_space_between(source: str, end: int, start: int) -> bool:
    # Comments between two shared tokens stay unmarked: they are not part of the fingerprint.
    return not source[end:start].strip()
