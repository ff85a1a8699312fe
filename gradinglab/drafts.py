"""Editor drafts: the code in the lab editor, saved on the server per student, problem and backend.

Saving is separate from submitting on purpose: a refused submission (too large, not UTF-8, rate
limited, closed) must never cost the student the code they typed."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.utils import timezone
from django.utils.translation import gettext

from gradinglab.models import Draft, Problem
from gradinglab.runner.source import MAX_SOURCE_BYTES, SourceProblem, source_problem


class DraftError(ValueError):
    pass


def draft_save(*, student: AbstractBaseUser, problem: Problem, backend: str, source: str) -> Draft:
    if backend not in problem.backends:
        raise DraftError(gettext("后端 %(b)s 不可用") % {"b": backend})
    source = source.replace("\r\n", "\n")
    refused = source_problem(source, allow_empty=True)
    if refused == SourceProblem.TOO_LARGE:
        raise DraftError(gettext("草稿超过 %(n)d KiB，未保存") % {"n": MAX_SOURCE_BYTES // 1024})
    if refused == SourceProblem.NUL:
        raise DraftError(gettext("代码中含有 NUL 字节"))
    draft, _created = Draft.objects.update_or_create(
        student=student,
        problem=problem,
        backend=backend,
        defaults={"source": source, "updated_at": timezone.now()},
    )
    return draft


def drafts_of(student: AbstractBaseUser, problem: Problem) -> dict[str, Draft]:
    """The student's own drafts only (there is no staff view of drafts)."""
    return {d.backend: d for d in Draft.objects.filter(student=student, problem=problem)}
