"""Gradebook grid benchmark: the staff grid / CSV export for a whole course, computed from one bulk
load (`selectors.grid`), against the naive way (one `student_view` per student, as 300 students
opening 我的成绩 would). Both produce the same totals; the run checks that before timing.

    .venv/bin/python bench/gradebook_grid.py                # print the results
    .venv/bin/python bench/gradebook_grid.py --write-doc    # also append them to docs/benchmarks.md

Uses its own throwaway SQLite file in a temporary folder (no services needed); the synthetic course
is written with bulk_create (bench set-up only — real scores go through gradebook.services).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STUDENTS, QUIZZES, LABS = 300, 30, 10  # a large class of this course: 300 × 40 items
REPEATS = 3  # best of 3 runs, in seconds


def _setup_django(db_path: str) -> None:
    sys.path.insert(0, str(ROOT))
    os.environ["DATABASE_URL"] = f"sqlite:///{db_path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pdcsite.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def _items(
    kind: str, count: int, now: datetime, *, first_due_days: int, every_days: int, **fields
) -> list:
    """``count`` unsaved grade items of one kind (category = kind), the first due
    ``first_due_days`` days before ``now`` and each next one ``every_days`` days later."""
    from gradebook.models import GradeItem

    return [
        GradeItem(
            key=f"{kind}:{i}",
            title=f"{kind[0]}{i}",
            kind=kind,
            category=kind,
            due_at=now - timedelta(days=first_due_days - every_days * i),
            **fields,
        )
        for i in range(count)
    ]


def _course() -> None:
    from django.contrib.auth import get_user_model
    from django.contrib.auth.models import Group
    from django.utils import timezone

    from accounts.models import Profile
    from gradebook.models import Grade, GradeItem

    rng, now, user_model = random.Random(6), timezone.now(), get_user_model()
    users = user_model.objects.bulk_create(
        user_model(username=f"s{i:04d}", password="!") for i in range(STUDENTS)
    )
    Group.objects.get_or_create(name="student")[0].user_set.add(*users)
    Profile.objects.bulk_create(
        Profile(user=u, student_id=u.username, display_name=u.username, section=f"S{i % 4}")
        for i, u in enumerate(users)
    )
    quizzes = _items("quiz", QUIZZES, now, max_points=10, first_due_days=40, every_days=1)
    labs = _items(
        "lab", LABS, now, max_points=100, first_due_days=35, every_days=3, late_policy="grace"
    )
    items = GradeItem.objects.bulk_create(quizzes + labs)
    grades = []
    for user in users:
        for item in items:
            if rng.random() < 0.9:  # 10 % missing
                late = timedelta(hours=rng.choice([-5, -1, 3, 30, 70]))
                points = Decimal(rng.randint(0, int(item.max_points)))
                grades.append(
                    Grade(
                        student=user,
                        item=item,
                        points=points,
                        auto_points=points,
                        source="lab",
                        submitted_at=item.due_at + late,
                        computed_at=now,
                    )
                )
    Grade.objects.bulk_create(grades, batch_size=2000)


def _best(fn) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def run() -> dict[str, float]:
    from gradebook import calc, csvio, selectors

    students = list(selectors.roster())
    bulk = selectors.grid()
    naive = {s.pk: selectors.student_view(s)["standing"].total_percent for s in students[:20]}
    assert all(r.total == naive[r.student.pk] for r in bulk["rows"] if r.student.pk in naive)
    t_grid = _best(selectors.grid)
    t_export = _best(lambda: csvio.gradebook_export(selectors.grid()))
    t_naive = _best(lambda: [selectors.student_view(s) for s in students])
    _give_late_labs_candidates()
    t_candidates = _best(selectors.grid)
    _drop_lowest_lab()
    t_dropped = _best(selectors.grid)
    limits = calc.PLAN_MAX_TRIES, calc.PLAN_MAX_DROP_WAYS
    calc.PLAN_MAX_TRIES = calc.PLAN_MAX_DROP_WAYS = 0  # the programme's plan alone, as before
    t_programme = _best(selectors.grid)
    calc.PLAN_MAX_TRIES, calc.PLAN_MAX_DROP_WAYS = limits
    return {
        "grid": t_grid,
        "export": t_export,
        "naive": t_naive,
        "candidates": t_candidates,
        "dropped": t_dropped,
        "programme": t_programme,
    }


def _drop_lowest_lab() -> None:
    """Quizzes 40 %, labs 60 % with the lowest lab dropped: a student's total is then no sum of
    the items' fractions, so the programme runs once for each lab dropped (calc._drop_weights)."""
    from gradebook.models import Category

    Category.objects.update_or_create(key="quiz", defaults={"weight": Decimal(40)})
    Category.objects.update_or_create(key="lab", defaults={"weight": Decimal(60), "drop_lowest": 1})


def _give_late_labs_candidates() -> None:
    """Every late grace-day lab grade gets an on-time work worth 10 points less (Grade.candidates):
    each such student's standing is then planned (calc._plan) and allocated three times, the
    posted works, item by item and the plan (calc._allocate): what a GRACE choice costs the grid."""
    from gradebook.models import Grade

    late = [
        g
        for g in Grade.objects.filter(item__late_policy="grace").select_related("item")
        if g.submitted_at > g.item.due_at and g.points >= 10
    ]
    for g in late:
        at = (g.item.due_at - timedelta(hours=1)).isoformat()
        g.candidates = [[str(g.points - 10), at, f"submission:{g.pk}0"]]
    Grade.objects.bulk_update(late, ["candidates"], batch_size=2000)


def _report(r: dict[str, float]) -> str:
    cmd = ".venv/bin/python bench/gradebook_grid.py"
    return "\n".join(
        [
            "",
            "## Gradebook grid (issue 6)",
            "",
            f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC · {platform.machine()}, {os.cpu_count()} CPUs, "
            f"Python {platform.python_version()}, SQLite (temp file) · `{cmd}`",
            "",
            f"{STUDENTS} students × {QUIZZES + LABS} items (~90 % submitted, grace-day labs), "
            f"best of {REPEATS}, one run:",
            "",
            "| what | seconds | per student |",
            "| --- | ---: | ---: |",
            f"| staff grid, bulk (`selectors.grid`) | {r['grid']:.3f} | "
            f"{r['grid'] / STUDENTS * 1000:.2f} ms |",
            f"| whole-gradebook CSV export | {r['export']:.3f} | "
            f"{r['export'] / STUDENTS * 1000:.2f} ms |",
            f"| naive: `student_view` per student | {r['naive']:.3f} | "
            f"{r['naive'] / STUDENTS * 1000:.2f} ms |",
            f"| staff grid, every late grace-day lab with an on-time candidate | "
            f"{r['candidates']:.3f} | {r['candidates'] / STUDENTS * 1000:.2f} ms |",
            f"| the same, the lowest lab dropped (a programme run for each lab dropped) | "
            f"{r['dropped']:.3f} | {r['dropped'] / STUDENTS * 1000:.2f} ms |",
            f"| the same, one programme run as if nothing were dropped (before) | "
            f"{r['programme']:.3f} | {r['programme'] / STUDENTS * 1000:.2f} ms |",
            "",
            f"Bulk grid is {r['naive'] / r['grid']:.1f}× faster than per-student views; with "
            f"candidates to choose from (GRACE), the grid takes {r['candidates'] / r['grid']:.2f}× "
            f"its time without, and {r['dropped'] / r['grid']:.2f}× with the lowest lab dropped "
            f"({r['dropped'] / r['programme']:.2f}× one programme run as if nothing were dropped).",
            "",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--write-doc", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        _setup_django(str(Path(tmp) / "bench.sqlite3"))
        _course()
        text = _report(run())
    print(text)
    if args.write_doc:
        with open(ROOT / "docs" / "benchmarks.md", "a", encoding="utf-8") as doc:
            doc.write(text)


if __name__ == "__main__":
    main()
