"""Problem packages into the database: sync (statements rendered from Markdown), the publishing
check's record, and the demo assignments of `make run`.
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone

from gradinglab.models import (
    Assignment,
    Problem,
)
from gradinglab.services.results import assignment_grade_item

RENDER_VERSION = b"statement-render-2"  # bump to re-render every statement on the next sync


def _package_hash(path) -> str:
    """Every file of the package (statement, reference, starters, solutions, exploit suite): a
    change anywhere re-renders and withdraws the publishing check until it is run again."""
    digest = hashlib.sha256(RENDER_VERSION)
    for file in sorted(p for p in path.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        rel = file.relative_to(path).as_posix()
        digest.update(rel.encode() + b"\0" + file.read_bytes())
    return digest.hexdigest()


def problem_check_record(*, slug: str, only: list[str] | None = None):
    """Run the publishing check of a package (gradinglab.problem_check) and record it on the
    problem. It is publishable only when every file was checked, nothing mismatched, and the
    package on disk is the synced one. Returns the report. Slow (real grading jobs): callers are
    the management command and a Celery task, never a request."""
    from gradinglab import problem_check
    from gradinglab.runner.problems import problems_dir

    pkg = problems_dir() / slug
    digest = _package_hash(pkg) if pkg.is_dir() else ""
    report = problem_check.run(slug, pkg, only)
    with transaction.atomic():
        row = Problem.objects.select_for_update().filter(slug=slug).first()
        if row is not None:
            complete = report.passed and only is None and digest == row.content_sha256
            row.checked_sha256 = digest if complete else ""
            row.checked_at = timezone.now()
            row.check_report = report.as_json()
            row.save(update_fields=["checked_sha256", "checked_at", "check_report"])
    return report


def _loosen_lists(text: str) -> str:
    """Markdown needs a blank line before a list; package authors often omit it."""
    out: list[str] = []
    for line in text.splitlines():
        is_item = line.lstrip().startswith(("- ", "* ", "1. "))
        if is_item and out and out[-1].strip() and not out[-1].lstrip().startswith(("- ", "* ")):
            if not out[-1].startswith(" "):
                out.append("")
        out.append(line)
    return "\n".join(out)


def _problem_fields(problem) -> dict[str, Any]:
    from lectures.rendering import render_markdown

    return {
        "title_zh": problem.title.get("zh", problem.slug),
        "title_en": problem.title.get("en", ""),
        "statement_zh_html": render_markdown(_loosen_lists(problem.statement.get("zh", ""))).html,
        "statement_en_html": render_markdown(_loosen_lists(problem.statement.get("en", ""))).html,
        "sections": list(problem.sections),
        "backends": list(problem.backends),
        "entry_point": dict(problem.entry_point),
        "dtypes": list(problem.dtypes),
        "tolerances": problem.tolerances,
        "tests": [{"name": t.name, "shape": dict(t.shape)} for t in problem.tests],
        "benchmarks": [{"name": t.name, "shape": dict(t.shape)} for t in problem.benchmarks],
        "scoring": dict(problem.scoring),
        "bound": problem.bound,
    }


@transaction.atomic
def problems_sync() -> dict[str, Any]:
    """Load every problem package into the database. Idempotent: an unchanged package keeps its
    row, except that its statements are re-rendered if the renderer now draws them differently;
    an invalid package is reported and left as it was (its row, if any, stays)."""
    from gradinglab.models import Problem as ProblemRow
    from gradinglab.runner import ProblemInvalid, load_problem
    from gradinglab.runner.problems import problems_dir
    from lectures.rendering import RenderError

    counts: dict[str, Any] = {
        "created": 0,
        "updated": 0,
        "unchanged": 0,
        "rerendered": 0,
        "deactivated": 0,
    }
    errors: list[str] = []
    seen = []
    root = problems_dir()
    slugs = sorted(p.name for p in root.iterdir() if (p / "problem.yaml").is_file())
    for slug in slugs:
        seen.append(slug)
        try:
            problem = load_problem(slug)
        except ProblemInvalid as exc:  # its words begin with the slug: said once, not twice
            said = str(exc)
            errors.append(said if said.startswith(f"{slug}: ") else f"{slug}: {said}")
            continue
        try:
            fields = _problem_fields(problem)
        except RenderError as exc:  # one bad statement never stops the other packages
            errors.append(f"{slug}: statement: {exc.at_line()}")
            continue
        digest = _package_hash(problem.path)
        row = ProblemRow.objects.filter(slug=problem.slug).first()
        if row is not None and row.content_sha256 == digest and row.active:
            counts["unchanged"] += 1
            counts["rerendered"] += _refresh_statements(row, fields)
            continue
        fields.update(content_sha256=digest, active=True)
        fields["synced_at"] = timezone.now()
        ProblemRow.objects.update_or_create(slug=problem.slug, defaults=fields)
        counts["created" if row is None else "updated"] += 1
    counts["deactivated"] = (
        ProblemRow.objects.exclude(slug__in=seen).filter(active=True).update(active=False)
    )
    counts["errors"] = errors
    return counts


_STATEMENTS = ("statement_zh_html", "statement_en_html")


def _refresh_statements(row, fields: dict[str, Any]) -> int:
    """Store the statements as the renderer now draws them, for a package that has not changed:
    a renderer fix (display math over two lines) reaches existing rows. 1 if they changed."""
    stale = [name for name in _STATEMENTS if getattr(row, name) != fields[name]]
    for name in stale:
        setattr(row, name, fields[name])
    if stale:
        row.save(update_fields=stale)
    return int(bool(stale))


# Demo assignments for `make run`: two weeks to the due date, one more week of late window (days).
_DEMO_DUE_DAYS, _DEMO_LATE_DAYS = 14, 7


@transaction.atomic
def assignments_publish_demo() -> int:
    """Publish a CPU-graded assignment for every active problem that has none; returns how many.

    Only for the embedded demo (`make run`): a real course publishes assignments in the admin.
    """
    now = timezone.now()
    created = 0
    for problem in Problem.objects.filter(active=True, assignments__isnull=True).order_by("slug"):
        assignment = Assignment.objects.create(
            problem=problem,
            published=True,
            due_at=now + timedelta(days=_DEMO_DUE_DAYS),
            late_until=now + timedelta(days=_DEMO_DUE_DAYS + _DEMO_LATE_DAYS),
        )
        assignment_grade_item(assignment)
        created += 1
    return created
