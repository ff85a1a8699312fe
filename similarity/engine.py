"""Ranking pairs by shared fingerprints, clustering them, laying the clusters out as a graph.

Pure Python over fingerprint sets (no Django, no sources): the run service feeds it the current
students' submissions and the archive's entries, the benchmark feeds it a synthetic corpus.
An inverted index (fingerprint -> holders) counts shared fingerprints in time proportional to the
pairs that share any, instead of intersecting all n² / 2 pairs of sets.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass
from itertools import combinations

from similarity import conf


@dataclass(frozen=True)
class Doc:
    key: Hashable  # what the caller maps back (a submission id, an archive entry id)
    owner: str  # two docs of one owner are never a pair (a student's own versions)
    hashes: frozenset[int]


@dataclass(frozen=True)
class PairScore:
    a: Hashable
    b: Hashable
    shared: int  # fingerprints both hold, after the exclusions
    fraction_a: float  # shared / a's fingerprints
    fraction_b: float

    @property
    def fraction(self) -> float:
        """The shared fraction of the smaller submission: a copy padded with extra code still
        scores as what it is, a copy."""
        return max(self.fraction_a, self.fraction_b)


def common_hashes(docs: Iterable[Doc]) -> frozenset[int]:
    """Fingerprints held by so many owners that they are the problem's idiom, not a copy."""
    holders: dict[int, set[str]] = defaultdict(set)
    owners: set[str] = set()
    for doc in docs:
        owners.add(doc.owner)
        for value in doc.hashes:
            holders[value].add(doc.owner)
    limit = max(conf.COMMON_MIN_HOLDERS, math.ceil(conf.COMMON_SHARE * len(owners)))
    return frozenset(value for value, who in holders.items() if len(who) >= limit)


def filtered(docs: list[Doc], excluded: frozenset[int]) -> list[Doc]:
    return [Doc(d.key, d.owner, d.hashes - excluded) for d in docs]


def rank_pairs(
    docs: list[Doc], *, boilerplate: frozenset[int] = frozenset(), floor: float = 0.0
) -> tuple[list[PairScore], frozenset[int]]:
    """Pairs of different owners ranked by shared fraction (highest first), and the common
    fingerprints that were ignored. `boilerplate`: the starter's and published solutions'."""
    docs = filtered(docs, boilerplate)
    common = common_hashes(docs)
    docs = filtered(docs, common)
    index: dict[int, list[int]] = defaultdict(list)
    for i, doc in enumerate(docs):
        for value in doc.hashes:
            index[value].append(i)
    shared: dict[tuple[int, int], int] = defaultdict(int)
    for holders in index.values():
        for i, j in combinations(holders, 2):
            if docs[i].owner != docs[j].owner:
                shared[(i, j)] += 1
    pairs = [
        _score(docs[i], docs[j], count)
        for (i, j), count in shared.items()
        if count >= conf.MIN_SHARED
    ]
    pairs = [p for p in pairs if p.fraction >= floor]
    pairs.sort(key=lambda p: (-p.fraction, -p.shared, str(p.a), str(p.b)))
    return pairs, common


def _score(a: Doc, b: Doc, count: int) -> PairScore:
    return PairScore(a.key, b.key, count, count / len(a.hashes), count / len(b.hashes))


def pair_score(a: frozenset[int], b: frozenset[int], excluded: frozenset[int]) -> float:
    """The shared fraction of one pair under a run's exclusions (the review page's timeline)."""
    a, b = a - excluded, b - excluded
    count = len(a & b)
    if count < conf.MIN_SHARED:
        return 0.0
    return max(count / len(a), count / len(b))


def clusters(pairs: Iterable[PairScore], threshold: float) -> list[list[Hashable]]:
    """Connected groups of submissions joined by pairs at or above the threshold, largest first."""
    parent: dict[Hashable, Hashable] = {}

    def find(x: Hashable) -> Hashable:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for pair in pairs:
        if pair.fraction >= threshold:
            parent[find(pair.a)] = find(pair.b)
    groups: dict[Hashable, list[Hashable]] = defaultdict(list)
    for node in list(parent):
        groups[find(node)].append(node)
    return sorted((sorted(g, key=str) for g in groups.values()), key=lambda g: (-len(g), str(g[0])))
