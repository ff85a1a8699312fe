"""Rescore: recompute every stored result of an assignment under the problem's current scoring rule
(nothing is run again; a re-run is `submissions.submissions_rerun`).
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from gradebook.models import Grade
from gradebook.reasons import Reason
from gradinglab.models import (
    Assignment,
    RegradeRun,
    Submission,
    SubmissionResult,
)
from gradinglab.services.results import assignment_grade_sync, submission_score


@dataclass(frozen=True)
class ScoreChange:
    student_id: int
    username: str
    old: Decimal | None
    new: Decimal
    submission_changes: list[tuple[int, str | None, str]]  # (submission id, old, new)

    def as_json(self) -> dict[str, Any]:
        return {
            "student_id": self.student_id,
            "username": self.username,
            "old": None if self.old is None else str(self.old),
            "new": str(self.new),
            "submissions": [list(c) for c in self.submission_changes],
        }


def _rescored(assignment: Assignment) -> dict[int, list[tuple[Submission, Decimal | None]]]:
    """Each student's graded submissions with the score their stored result earns now. Practice
    runs are left out: they are never scored (services.submissions.submission_create)."""
    by_student: dict[int, list[tuple[Submission, Decimal | None]]] = {}
    results = {
        (r.submission_id, r.round): r.document
        for r in SubmissionResult.objects.filter(submission__assignment=assignment)
    }
    graded = Submission.objects.filter(assignment=assignment, practice=False)
    for sub in graded.select_related("student", "assignment__problem"):
        doc = results.get((sub.pk, sub.round))
        new = submission_score(sub, doc) if doc else sub.score
        by_student.setdefault(sub.student_id, []).append((sub, new))
    return by_student


def regrade_plan(*, assignment: Assignment) -> list[ScoreChange]:
    """What rescoring every stored result under the current rule would change (nothing written)."""
    grades = {
        g.student_id: g.auto_points
        for g in Grade.objects.filter(item__key=assignment.grade_item_key)
    }
    changes = []
    for student_id, rows in _rescored(assignment).items():
        # A TA's override of one submission stays in force through a rescore.
        scored = [
            s.score_override if s.score_override is not None else new
            for s, new in rows
            if new is not None or s.score_override is not None
        ]
        if not scored:
            continue
        best = max(scored)
        per_sub = [
            (s.pk, None if s.score is None else str(s.score), str(new))
            for s, new in rows
            if new is not None and new != s.score
        ]
        if grades.get(student_id) != best or per_sub:
            changes.append(
                ScoreChange(
                    student_id, rows[0][0].student.username, grades.get(student_id), best, per_sub
                )
            )
    return sorted(changes, key=lambda c: c.username)


@transaction.atomic
def regrade_apply(
    *, assignment: Assignment, actor: AbstractBaseUser, dry_run: bool
) -> tuple[RegradeRun, list[ScoreChange]]:
    """Record the plan (audit row); when not a dry run, write the new scores through the gradebook."""
    changes = regrade_plan(assignment=assignment)
    run = RegradeRun.objects.create(
        assignment=assignment,
        actor=actor,
        dry_run=dry_run,
        changes=[c.as_json() for c in changes],
        at=timezone.now(),
    )
    if dry_run:
        return run, changes
    rows = _rescored(assignment)
    for change in changes:
        for sub, new in rows[change.student_id]:
            if new != sub.score:
                sub.score = new
                sub.save(update_fields=["score"])
        assignment_grade_sync(
            assignment=assignment,
            student=rows[change.student_id][0][0].student,
            actor=actor,
            reason=Reason("regrade_run", run=run.pk, user=actor.get_username()),
        )
    return run, changes
