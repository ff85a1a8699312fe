"""Similarity benchmark (issue 17, must hold 2): 300 submissions of one problem (softmax), ranked by
the similarity engine (Pygments tokens, winnowed fingerprints, an inverted index), against a naive
all-pairs diff of the same corpus (difflib.SequenceMatcher over source lines, 44 850 pairs), side by
side in one run: wall time (best of REPEATS) and peak Python memory (tracemalloc, a separate pass,
because tracing slows the code down).

The corpus: each submission is one of the 17 independent kernels of similarity/tests/corpus.py,
disguised the way a copier would (renamed names, swapped statements, changed constants). So two
submissions from one kernel are a "copy" and two from different kernels are not; the run also
reports how many of each kind each method puts at or above the review threshold (0.5).

    .venv/bin/python bench/similarity.py                # print the results
    .venv/bin/python bench/similarity.py --write-doc    # also append them to docs/benchmarks.md

Pure Python over sources in memory: no database, no services.
"""

from __future__ import annotations

import argparse
import difflib
import os
import platform
import random
import sys
import time
import tracemalloc
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SUBMISSIONS = 300
REPEATS = 3  # best of 3 runs, in seconds
THRESHOLD = 0.5  # similarity.conf.REVIEW_THRESHOLD; difflib's ratio judged on the same line


def _corpus(seed: int = 2026) -> tuple[list[str], list[int]]:
    from similarity.tests.corpus import INDEPENDENT, disguise

    rng = random.Random(seed)
    bases = [rng.randrange(len(INDEPENDENT)) for _ in range(SUBMISSIONS)]
    return [disguise(INDEPENDENT[b], rng) for b in bases], bases


def _boilerplate() -> frozenset[int]:
    from similarity import fingerprint as fp
    from similarity import selectors

    texts = selectors.excluded_code("softmax", "triton")
    return frozenset().union(*(fp.all_kgrams(text, "triton") for text in texts))


def _ours(sources: list[str]) -> dict[tuple[int, int], float]:
    """A first run: every source tokenised and fingerprinted, then ranked."""
    from similarity import fingerprint as fp

    return _rank([fp.fingerprints(s, "triton") for s in sources], _boilerplate())


def _rank(prints: list[frozenset[int]], boiler: frozenset[int]) -> dict[tuple[int, int], float]:
    from similarity import engine

    docs = [engine.Doc(i, str(i), hashes) for i, hashes in enumerate(prints)]
    pairs, _common = engine.rank_pairs(docs, boilerplate=boiler)
    return {(min(p.a, p.b), max(p.a, p.b)): p.fraction for p in pairs}


class _Warm:
    """A later run: fingerprints come from FingerprintCache (no tokenising), then ranked."""

    def __init__(self, sources: list[str]) -> None:
        from similarity import fingerprint as fp

        self.prints = [fp.fingerprints(s, "triton") for s in sources]
        self.boiler = _boilerplate()

    def __call__(self, _sources: list[str]) -> dict[tuple[int, int], float]:
        return _rank(self.prints, self.boiler)


def _difflib(sources: list[str]) -> dict[tuple[int, int], float]:
    lines = [[line.strip() for line in s.splitlines() if line.strip()] for s in sources]
    return {
        (i, j): difflib.SequenceMatcher(None, lines[i], lines[j], autojunk=False).ratio()
        for i, j in combinations(range(len(sources)), 2)
    }


def _time(fn: Callable, sources: list[str]) -> tuple[float, dict]:
    best, result = float("inf"), {}
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = fn(sources)
        best = min(best, time.perf_counter() - start)
    return best, result


def _peak_mib(fn: Callable, sources: list[str]) -> float:
    tracemalloc.start()
    fn(sources)
    _current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    return peak / (1024 * 1024)


def _flagged(scores: dict, bases: list[int]) -> tuple[int, int, int, int]:
    """(copies flagged, copies, others flagged, others) at the threshold."""
    same = other = same_hit = other_hit = 0
    for i, j in combinations(range(len(bases)), 2):
        hit = scores.get((i, j), 0.0) >= THRESHOLD
        if bases[i] == bases[j]:
            same, same_hit = same + 1, same_hit + hit
        else:
            other, other_hit = other + 1, other_hit + hit
    return same_hit, same, other_hit, other


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write-doc", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pdcsite.settings")
    import django

    django.setup()
    sources, bases = _corpus()
    rows = []
    methods = (
        ("first run: tokenise + fingerprint + rank (`similarity.engine`)", _ours),
        ("later run: fingerprints from the cache, rank only", _Warm(sources)),
        ("naive: difflib on every pair of sources (lines)", _difflib),
    )
    for name, fn in methods:
        seconds, scores = _time(fn, sources)
        rows.append((name, seconds, _peak_mib(fn, sources), _flagged(scores, bases)))
    report = _report(rows)
    print(report)
    if args.write_doc:
        _write_doc(report, rows)


def _report(rows: list) -> str:
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    head = (
        f"{stamp} · {platform.machine()}, {os.cpu_count()} CPUs, Python {platform.python_version()},"
        f" load {os.getloadavg()[0]:.1f}"
        f" · `.venv/bin/python bench/similarity.py`\n\n"
        f"{SUBMISSIONS} softmax submissions ({SUBMISSIONS * (SUBMISSIONS - 1) // 2} pairs), best of"
        f" {REPEATS}; peak memory from a separate tracemalloc pass; flagged = score ≥ {THRESHOLD}:\n\n"
        "| method | seconds | peak MiB | copies flagged | other pairs flagged |\n"
        "| --- | ---: | ---: | ---: | ---: |\n"
    )
    body = "".join(
        f"| {name} | {sec:.3f} | {mib:.1f} | {sh} / {s} | {oh} / {o} |\n"
        for name, sec, mib, (sh, s, oh, o) in rows
    )
    first, later, naive = (row[1] for row in rows)
    return (
        head
        + body
        + (
            f"\nAgainst the all-pairs diff: a first run takes {first / naive:.2f}× its time, a later"
            f" run (fingerprints cached) {later / naive:.3f}×.\n"
        )
    )


def _write_doc(report: str, rows: list) -> None:
    path = ROOT / "docs" / "benchmarks.md"
    text = path.read_text(encoding="utf-8")
    title = "## Similarity over 300 submissions (issue 17, `bench/similarity.py`)"
    if title not in text:
        text = text.rstrip("\n") + f"\n\n{title}\n"
    # The run goes at the end of this section (each section keeps its runs in time order).
    start = text.index(title) + len(title)
    end = text.find("\n## ", start)
    end = len(text) if end < 0 else end
    section = text[:end].rstrip("\n") + "\n\n" + report
    path.write_text(section + ("\n" + text[end:].lstrip("\n") if end < len(text) else ""), "utf-8")
    print("summary: " + ", ".join(f"{row[1]:.2f} s / {row[2]:.1f} MiB" for row in rows))


if __name__ == "__main__":
    main()
