"""Helpers for the similarity tests: the softmax corpus as real students' submissions."""

from __future__ import annotations

import hashlib
from datetime import timedelta
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.utils import timezone

from accounts.roles import STUDENT, roles_sync
from gradinglab.models import Assignment, Problem, Submission
from similarity.tests.corpus import corpus, obvious_fix


def softmax_assignment(**fields) -> Assignment:
    from gradinglab.runner import load_problem
    from gradinglab.services.problem_sync import _problem_fields

    # The one package these tests use, not all nine (problems_sync hashes every package's files).
    if not Problem.objects.filter(slug="softmax").exists():
        Problem.objects.create(slug="softmax", **_problem_fields(load_problem("softmax")))
    defaults = {"points": Decimal("10"), "published": True, "title": "Softmax lab"}
    return Assignment.objects.create(
        problem=Problem.objects.get(slug="softmax"), **(defaults | fields)
    )


def students(names: list[str]) -> dict[str, object]:
    """Plain student accounts (one role sync, not one per user: this runs for 20+ students)."""
    roles_sync()
    group = Group.objects.get(name=STUDENT)
    User = get_user_model()
    made = {}
    for name in names:
        user = User.objects.create_user(username=f"stu_{name}", password="pw-test-12345")
        user.groups.add(group)
        made[name] = user
    return made


def submit(assignment: Assignment, student, source: str, *, minutes_ago: float = 0) -> Submission:
    return Submission.objects.create(
        assignment=assignment,
        student=student,
        backend="triton",
        source=source,
        sha256=hashlib.sha256(source.encode()).hexdigest(),
        created_at=timezone.now() - timedelta(minutes=minutes_ago),
        status=Submission.Status.ACCEPTED,
        queue="grade-cpu",
    )


def class_of_twenty(assignment: Assignment, *, with_fix: bool = True) -> dict[str, Submission]:
    """The 20-student corpus (3 copied pairs, 14 independent) plus, with `with_fix`, two more
    students who both handed in the starter plus the obvious one-line fix."""
    sources = corpus()
    if with_fix:
        sources |= {"f1": obvious_fix(), "f2": obvious_fix()}
    users = students(list(sources))
    return {name: submit(assignment, users[name], src) for name, src in sources.items()}
