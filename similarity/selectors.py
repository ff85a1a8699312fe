"""Reads for the similarity pages and runs. Every caller is staff-only (similarity.views)."""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.db.models import QuerySet
from django.utils.safestring import SafeString, mark_safe

from gradinglab.models import Assignment, Submission
from similarity import conf, engine
from similarity import fingerprint as fp
from similarity.models import ArchivedFingerprint, SimilarityDecision, SimilarityPair, SimilarityRun

SOURCE_SUFFIX = {"triton": ".py", "cuda": ".cu"}


def compared_submissions(assignment: Assignment) -> list[Submission]:
    """Each student's latest handed-in submission (practice runs are not handed in).

    Latest, not every submission: it is the work the student stands behind, one per student
    keeps a run at n² / 2 pairs of students rather than of all their attempts, and the review
    page's timeline still shows when shared code first appeared in earlier ones.
    """
    latest: dict[int, Submission] = {}
    history = Submission.objects.filter(assignment=assignment, practice=False).order_by(
        "created_at", "pk"
    )
    for sub in history.select_related("student"):
        latest[sub.student_id] = sub
    return list(latest.values())


def _excluded_paths(slug: str, backend: str) -> list[Path]:
    """The starter and every published solution of the problem for this backend."""
    from gradinglab.runner import ProblemNotFound, load_problem

    try:
        package = load_problem(slug)
    except ProblemNotFound:
        return []
    paths = [package.starter_path(backend)]
    solutions = package.path / "solutions" / backend
    if solutions.is_dir():
        paths += sorted(solutions.glob(f"*{SOURCE_SUFFIX.get(backend, '.py')}"))
    return [p for p in paths if p.is_file()]


def excluded_code(slug: str, backend: str) -> list[str]:
    return [p.read_text(encoding="utf-8") for p in _excluded_paths(slug, backend)]


def boilerplate(slug: str, backend: str) -> frozenset[int]:
    """Every k-gram of the excluded code; cached per process while the files are unchanged."""
    paths = _excluded_paths(slug, backend)
    return _boilerplate(backend, tuple((str(p), p.stat().st_mtime_ns) for p in paths))


@lru_cache(maxsize=64)
def _boilerplate(backend: str, files: tuple[tuple[str, int], ...]) -> frozenset[int]:
    hashes: set[int] = set()
    for path, _mtime in files:
        hashes |= fp.all_kgrams(Path(path).read_text(encoding="utf-8"), backend)
    return frozenset(hashes)


def archive_for(slug: str, backend: str) -> QuerySet[ArchivedFingerprint]:
    return ArchivedFingerprint.objects.filter(problem_slug=slug, backend=backend)


def latest_run(assignment: Assignment) -> SimilarityRun | None:
    return assignment.similarity_runs.order_by("-created_at", "-pk").first()


def pairs_of(run: SimilarityRun) -> list[SimilarityPair]:
    pairs = list(
        run.pairs.select_related(
            "submission_a__student__profile", "submission_b__student__profile", "archived"
        ).order_by("rank")
    )
    latest: dict[int, SimilarityDecision] = {}
    for decision in SimilarityDecision.objects.filter(pair__run=run).order_by("decided_at", "pk"):
        latest[decision.pair_id] = decision
    for pair in pairs:
        pair.latest_decision = latest.get(pair.pk)
        pair.needs_review = pair.fraction >= conf.REVIEW_THRESHOLD
    return pairs


def pair_queryset() -> QuerySet[SimilarityPair]:
    return SimilarityPair.objects.select_related(
        "run__assignment__problem",
        "submission_a__student__profile",
        "submission_b__student__profile",
        "archived",
    )


def decisions_of(pair: SimilarityPair) -> QuerySet[SimilarityDecision]:
    return pair.decisions.select_related("decided_by__profile")


# --- the review page -------------------------------------------------------------------------


def highlighted(source: str, spans: list[tuple[int, int]]) -> SafeString:
    """The source as escaped HTML with the shared spans in <mark>."""
    out, pos = [], 0
    for start, end in spans:
        out.append(html.escape(source[pos:start]))
        out.append(f'<mark class="shared">{html.escape(source[start:end])}</mark>')
        pos = end
    out.append(html.escape(source[pos:]))
    return mark_safe("".join(out))


@dataclass
class Side:
    submission: Submission
    html: SafeString
    shared_chars: int
    timeline: list[dict]


def _ignored(pair: SimilarityPair) -> frozenset[int]:
    sub = pair.submission_a
    return boilerplate(pair.run.assignment.problem.slug, sub.backend) | frozenset(
        pair.run.common_hashes
    )


def review(pair: SimilarityPair) -> dict:
    """Both sides highlighted and each student's timeline on the problem."""
    ignore = _ignored(pair)
    a = pair.submission_a
    if pair.submission_b is not None:
        b = pair.submission_b
        b_all = fp.all_kgrams(b.source, b.backend)
        a_all = fp.all_kgrams(a.source, a.backend)
        return {
            "sides": [
                _side(a, b_all, ignore, fp.fingerprints(b.source, b.backend)),
                _side(b, a_all, ignore, fp.fingerprints(a.source, a.backend)),
            ]
        }
    archived = frozenset(pair.archived.hashes)
    return {"sides": [_side(a, archived, ignore, archived), {"archived": pair.archived}]}


def _side(
    sub: Submission, other_kgrams: frozenset[int], ignore: frozenset[int], other: frozenset[int]
) -> Side:
    spans = fp.shared_spans(sub.source, sub.backend, other_kgrams, ignore=ignore)
    return Side(
        submission=sub,
        html=highlighted(sub.source, spans),
        shared_chars=sum(end - start for start, end in spans),
        timeline=timeline(sub, other, ignore),
    )


def timeline(sub: Submission, other: frozenset[int], ignore: frozenset[int]) -> list[dict]:
    """The student's handed-in submissions on the assignment, oldest first, each with its shared
    fraction with the other side; `first` marks where the shared code first appears."""
    rows, seen = [], False
    history = Submission.objects.filter(
        assignment_id=sub.assignment_id, student_id=sub.student_id, practice=False
    ).order_by("created_at", "pk")
    for item in history:
        score = engine.pair_score(fp.fingerprints(item.source, item.backend), other, ignore)
        first = not seen and score >= conf.REVIEW_THRESHOLD
        seen = seen or first
        rows.append(
            {"submission": item, "fraction": score, "first": first, "compared": item == sub}
        )
    return rows
