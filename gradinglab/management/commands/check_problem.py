"""`python manage.py check_problem <slug>... [--all] [--only FILE ...] [--json]`: the publishing gate.

Grades every solution and exploit of the package on the CPU path and compares each verdict with
its expectation (solutions/expected.yaml, exploits/manifest.yaml); records the outcome on the
problem (publishable only if nothing mismatched). Exit 0 when every package passed, 1 otherwise.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gradinglab.models import Problem
from gradinglab.problem_check import format_report
from gradinglab.services.problem_sync import problem_check_record


class Command(BaseCommand):
    help = "Run a problem's solutions and exploit suite on the CPU path; refuse to publish on any mismatch."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slugs", nargs="*")
        parser.add_argument("--all", action="store_true", help="every active problem")
        parser.add_argument(
            "--only", nargs="+", help="only these files (never makes a problem publishable)"
        )
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        slugs = list(options["slugs"])
        if options["all"]:
            slugs = list(Problem.objects.filter(active=True).values_list("slug", flat=True))
        if not slugs:
            raise CommandError("name at least one problem, or --all")
        failed = 0
        for slug in slugs:
            if not Problem.objects.filter(slug=slug).exists():
                raise CommandError(f"no synced problem {slug!r}; run sync_problems first")
            report = problem_check_record(slug=slug, only=options["only"])
            if options["json"]:
                self.stdout.write(json.dumps(report.as_json(), ensure_ascii=False))
            else:
                self.stdout.write(format_report(report))
            failed += not report.passed
        if failed:
            self.stderr.write(f"{failed} of {len(slugs)} problem(s) refused: not publishable")
            sys.exit(1)
