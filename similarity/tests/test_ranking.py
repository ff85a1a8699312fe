"""Must hold 1: on a 20-student softmax corpus (3 pairs copied with renamed variables, reordered
statements and changed constants; 14 independently written; all from the starter) the copied
pairs rank top 3, no other pair reaches the review threshold, and two students who handed in the
starter plus the obvious one-line fix are not flagged."""

from __future__ import annotations

import pytest

from similarity import conf, engine
from similarity import fingerprint as fp
from similarity.models import SimilarityRun
from similarity.services import similarity_run_execute, similarity_run_request
from similarity.tests.corpus import COPIED_PAIRS, INDEPENDENT, corpus, disguise, starter
from similarity.tests.kit import class_of_twenty, softmax_assignment

pytestmark = pytest.mark.django_db


def _run(assignment) -> SimilarityRun:
    run = similarity_run_request(assignment=assignment, actor=None)
    return similarity_run_execute(run_id=run.pk)


def test_copied_pairs_rank_top_three_and_nothing_else_is_flagged() -> None:
    assignment = softmax_assignment()
    subs = class_of_twenty(assignment)
    name_of = {s.pk: name for name, s in subs.items()}
    run = _run(assignment)
    assert run.status == SimilarityRun.Status.DONE, run.error
    assert run.submissions_compared == 22
    pairs = list(run.pairs.order_by("rank"))
    top = [frozenset({name_of[p.submission_a_id], name_of[p.submission_b_id]}) for p in pairs[:3]]
    assert set(top) == COPIED_PAIRS
    assert all(p.fraction >= conf.REVIEW_THRESHOLD for p in pairs[:3])
    for p in pairs[3:]:
        names = {name_of[p.submission_a_id], name_of[p.submission_b_id]}
        assert p.fraction < conf.REVIEW_THRESHOLD, (names, p.fraction)
    fix_pair = {subs["f1"].pk, subs["f2"].pk}
    assert not [p for p in pairs if {p.submission_a_id, p.submission_b_id} == fix_pair]
    # The three copied pairs are three clusters of two.
    assert len({p.cluster for p in pairs[:3]}) == 3 and pairs[0].cluster is not None


def test_the_starter_and_published_solutions_are_excluded() -> None:
    """Two students who hand in a published solution verbatim share nothing that counts."""
    from similarity.selectors import excluded_code

    solution = excluded_code("softmax", "triton")[1]
    docs = [engine.Doc(n, n, fp.fingerprints(solution, "triton")) for n in ("u1", "u2")]
    boiler = frozenset().union(
        *(fp.all_kgrams(t, "triton") for t in excluded_code("softmax", "triton"))
    )
    assert engine.rank_pairs(docs)[0], "without the exclusion the two are a pair"
    assert engine.rank_pairs(docs, boilerplate=boiler)[0] == []


def test_normalisation_ignores_names_constants_and_comments() -> None:
    import random

    source = INDEPENDENT[3]
    copy = "# my own work\n" + disguise(source, random.Random(1))
    assert copy != source
    a, b = fp.fingerprints(source, "triton"), fp.fingerprints(copy, "triton")
    assert len(a & b) / len(a) > 0.6
    assert fp.fingerprints(starter(), "triton") == fp.fingerprints(
        starter().replace("row", "r0w").replace("# TODO", "# todo"), "triton"
    )


def test_cuda_sources_are_tokenised_by_the_cuda_lexer() -> None:
    from similarity.selectors import excluded_code

    correct = excluded_code("vector-add", "cuda")[1]
    renamed = correct.replace("add_kernel", "k").replace("threads", "tpb").replace("256", "128")
    assert fp.fingerprints(correct, "cuda") == fp.fingerprints(renamed, "cuda")
    assert "threadIdx" in {t.symbol for t in fp.tokens(correct, "cuda")}


def test_fingerprints_are_stable_across_processes() -> None:
    """An archive is compared with fingerprints computed in another process, another term."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "from similarity.fingerprint import fingerprints;"
        "print(sorted(fingerprints('a = b + 1\\nc = a * 2\\nd = c - a\\n' * 3, 'triton')))"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[2],
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout  # fmt: skip
        for seed in ("1", "2")
    ]
    assert runs[0] == runs[1] and runs[0].strip() != "[]"


def test_corpus_is_what_the_test_says() -> None:
    sources = corpus()
    assert len(sources) == 20 and len(INDEPENDENT) == 17
