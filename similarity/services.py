"""Writes of the similarity app: runs (on demand and after deadlines), decisions, the archive."""

from __future__ import annotations

import hashlib
import logging
import secrets
from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from gradinglab.models import Assignment, Submission
from gradinglab.worker.queues import DEFAULT_QUEUE
from similarity import archive, conf, engine, selectors
from similarity import fingerprint as fp
from similarity.models import (
    ArchivedFingerprint,
    FingerprintCache,
    SimilarityDecision,
    SimilarityPair,
    SimilarityRun,
)

log = logging.getLogger("similarity")
RUN_TASK = "similarity.run"


class DecisionError(ValueError):
    """A decision that cannot be recorded (shown to the TA as a form error)."""


# --- runs ------------------------------------------------------------------------------------


def similarity_run_request(
    *, assignment: Assignment, actor: AbstractBaseUser | None, trigger: str = "manual"
) -> SimilarityRun:
    """A queued run; its task is sent once the row is committed (the worker must find it)."""
    run = SimilarityRun.objects.create(
        assignment=assignment, trigger=trigger, requested_by=actor, created_at=timezone.now()
    )
    transaction.on_commit(lambda: _send(run.pk))
    return run


def _send(run_id: int) -> None:
    from pdcsite.celery import app

    try:
        app.send_task(RUN_TASK, kwargs={"run_id": run_id}, queue=DEFAULT_QUEUE)
    except Exception:  # broker down: say so on the run, so staff see it and can start another
        log.exception("could not send similarity run %s", run_id)
        SimilarityRun.objects.filter(pk=run_id, status=SimilarityRun.Status.QUEUED).update(
            status=SimilarityRun.Status.FAILED,
            error="broker unreachable",
            finished_at=timezone.now(),
        )


def similarity_run_execute(*, run_id: int) -> SimilarityRun:
    """Compare the assignment's submissions with each other and with the archive; store pairs."""
    # Claim the queued run: a re-delivered task (acks_late) finds it taken or finished and
    # leaves it alone, so no run stores its pairs twice. A run left running by a killed worker
    # stays so; staff start another.
    claimed = SimilarityRun.objects.filter(pk=run_id, status=SimilarityRun.Status.QUEUED).update(
        status=SimilarityRun.Status.RUNNING
    )
    run = SimilarityRun.objects.select_related("assignment__problem").get(pk=run_id)
    if not claimed:
        return run
    try:
        with transaction.atomic():
            _compute(run)
    except Exception as exc:
        log.exception("similarity run %s failed", run.pk)
        run.status, run.error = SimilarityRun.Status.FAILED, f"{type(exc).__name__}: {exc}"[:2000]
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "error", "finished_at"])
    return run


def _compute(run: SimilarityRun) -> None:
    slug = run.assignment.problem.slug
    subs = selectors.compared_submissions(run.assignment)
    by_key = {f"s{s.pk}": s for s in subs}
    found: list[engine.PairScore] = []
    common: set[int] = set()
    archived: dict[str, ArchivedFingerprint] = {}
    for backend in sorted({s.backend for s in subs}):
        mine = [s for s in subs if s.backend == backend]
        prints = fingerprints_cached(mine, backend)
        docs = [engine.Doc(f"s{s.pk}", f"u{s.student_id}", prints[s.pk]) for s in mine]
        for entry in selectors.archive_for(slug, backend):
            archived[f"a{entry.pk}"] = entry
            docs.append(engine.Doc(f"a{entry.pk}", f"a{entry.pk}", frozenset(entry.hashes)))
        pairs, ignored = engine.rank_pairs(
            docs, boilerplate=selectors.boilerplate(slug, backend), floor=conf.STORE_FLOOR
        )
        found += [p for p in pairs if not (p.a.startswith("a") and p.b.startswith("a"))]
        common |= ignored
    found.sort(key=lambda p: (-p.fraction, -p.shared))
    found = found[: conf.MAX_PAIRS_STORED]
    cluster_of = {
        key: n
        for n, group in enumerate(engine.clusters(found, conf.REVIEW_THRESHOLD), start=1)
        for key in group
    }
    SimilarityPair.objects.bulk_create(
        _pair_row(run, rank, p, by_key, archived, cluster_of)
        for rank, p in enumerate(found, start=1)
    )
    run.status, run.finished_at = SimilarityRun.Status.DONE, timezone.now()
    run.submissions_compared, run.archive_compared = len(subs), len(archived)
    run.common_hashes = sorted(common)
    run.save()


def _pair_row(run, rank, score, by_key, archived, cluster_of) -> SimilarityPair:
    a_key, b_key = (score.a, score.b) if score.a.startswith("s") else (score.b, score.a)
    return SimilarityPair(
        run=run,
        rank=rank,
        submission_a=by_key[a_key],
        submission_b=by_key.get(b_key),
        archived=archived.get(b_key),
        shared=score.shared,
        fraction=round(score.fraction, 4),
        cluster=cluster_of.get(score.a),
    )


def fingerprints_cached(subs: list[Submission], backend: str) -> dict[int, frozenset[int]]:
    """Each submission's fingerprints by its id, tokenising only sources not seen before. Keyed
    by a hash of the source taken here (not the stored column), so the key is always the text."""
    digest = {s.pk: hashlib.sha256(s.source.encode("utf-8")).hexdigest() for s in subs}
    known = {
        row.sha256: frozenset(row.hashes)
        for row in FingerprintCache.objects.filter(
            sha256__in=set(digest.values()), backend=backend, algorithm=conf.ALGORITHM
        )
    }
    new = []
    for sub in subs:
        key = digest[sub.pk]
        if key not in known:
            known[key] = fp.fingerprints(sub.source, backend)
            new.append(FingerprintCache(sha256=key, backend=backend, algorithm=conf.ALGORITHM,
                                        hashes=sorted(known[key])))  # fmt: skip
    FingerprintCache.objects.bulk_create(new, ignore_conflicts=True, batch_size=500)
    return {sub.pk: known[digest[sub.pk]] for sub in subs}


def similarity_runs_after_deadlines(*, now: datetime | None = None) -> dict[str, int]:
    """Run once for every published assignment whose last accepted hand-in time (the late cutoff,
    else the due date) has passed and that has no run since. One failing assignment is logged
    and counted, and the others still run."""
    now = now or timezone.now()
    counts = {"ran": 0, "errors": 0}
    due = Assignment.objects.filter(published=True).filter(
        Q(late_until__isnull=False, late_until__lte=now)
        | Q(late_until__isnull=True, due_at__isnull=False, due_at__lte=now)
    )
    for assignment in due.order_by("pk"):
        cutoff = assignment.late_until or assignment.due_at
        if assignment.similarity_runs.filter(created_at__gte=cutoff).exists():
            continue
        try:
            run = SimilarityRun.objects.create(
                assignment=assignment, trigger=SimilarityRun.Trigger.DEADLINE, created_at=now
            )
            run = similarity_run_execute(run_id=run.pk)
        except Exception:
            log.exception("similarity after the deadline of assignment %s failed", assignment.pk)
            counts["errors"] += 1
            continue
        counts["ran" if run.status == SimilarityRun.Status.DONE else "errors"] += 1
    return counts


# --- decisions -------------------------------------------------------------------------------


@transaction.atomic
def similarity_decide(
    *, pair: SimilarityPair, decision: str, note: str, actor: AbstractBaseUser
) -> SimilarityDecision:
    """Record a TA's decision and write it into the gradebook's audit trail for each student."""
    from gradebook.models import GradeEvent
    from gradebook.reasons import Reason
    from gradebook.services import grade_audit_note
    from gradinglab.services.results import assignment_grade_item

    note = (note or "").strip()
    if decision not in SimilarityDecision.Decision.values:
        raise DecisionError(_("请选择一个结论。"))
    if decision != SimilarityDecision.Decision.NO_ISSUE and not note:
        raise DecisionError(_("“需约谈”和“上报”需要填写备注。"))
    row = SimilarityDecision.objects.create(
        pair=pair, decision=decision, note=note, decided_by=actor, decided_at=timezone.now()
    )
    item = assignment_grade_item(pair.run.assignment)
    fraction, a = f"{pair.fraction:.0%}", pair.submission_a_id
    if pair.submission_b_id:
        reason = Reason(
            "similarity_pair", a=a, b=pair.submission_b_id, fraction=fraction, decision=decision
        )
    else:
        reason = Reason(
            "similarity_archive", a=a, archived=pair.archived, fraction=fraction, decision=decision
        )
    students = [pair.submission_a.student]
    if pair.submission_b is not None:
        students.append(pair.submission_b.student)
    for student in students:
        grade_audit_note(
            item=item,
            student=student,
            actor=actor,
            action=GradeEvent.Action.SIMILARITY,
            reason=Reason("with_note", reason=reason, note=note) if note else reason,
        )
    return row


# --- archive ---------------------------------------------------------------------------------


def archive_export(*, assignments: list[Assignment], term: str) -> dict:
    """The fingerprints of each student's latest submission, under random refs: no code, no
    names, no ids that lead back to a student."""
    term = archive.term_check(term)
    entries = [
        archive.Entry(
            problem=assignment.problem.slug,
            backend=sub.backend,
            ref=secrets.token_hex(8),
            hashes=fp.fingerprints(sub.source, sub.backend),
        )
        for assignment in assignments
        for sub in selectors.compared_submissions(assignment)
    ]
    return archive.document(term=term, entries=entries)


@transaction.atomic
def archive_import(*, raw: bytes) -> tuple[str, int]:
    """(term, entries added). Importing the same file twice adds nothing the second time."""
    term, entries = archive.parse(raw)
    now = timezone.now()
    rows = [
        ArchivedFingerprint(
            term=term,
            problem_slug=e.problem,
            backend=e.backend,
            ref=e.ref,
            hashes=sorted(e.hashes),
            imported_at=now,
        )
        for e in entries
    ]
    before = ArchivedFingerprint.objects.filter(term=term).count()
    ArchivedFingerprint.objects.bulk_create(rows, ignore_conflicts=True, batch_size=500)
    return term, ArchivedFingerprint.objects.filter(term=term).count() - before
