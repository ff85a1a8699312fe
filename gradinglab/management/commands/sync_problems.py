from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from gradinglab.models import Problem
from gradinglab.problem_check import format_report
from gradinglab.services.problem_sync import problem_check_record, problems_sync


class Command(BaseCommand):
    help = "Load problem packages (gradinglab/problems/<slug>/) into the database; idempotent."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="run the publishing check (check_problem) on every package not yet checked at "
            "its current content; exit 1 if any is refused",
        )

    def handle(self, *args, **options) -> None:
        counts = problems_sync()
        errors = counts.pop("errors")
        self.stdout.write(", ".join(f"{k} {v}" for k, v in counts.items()))
        if settings.DJANGO_ENV == "development":
            # `make run` calls this; its CPU worker reads the credential from var/ (no env needed).
            call_command("ensure_local_worker", stdout=self.stdout)
        for line in errors:
            self.stderr.write(f"invalid package: {line}")
        if errors:
            raise CommandError(f"{len(errors)} invalid problem package(s); the others were synced")
        self._gate(check=options["check"])

    def _gate(self, *, check: bool) -> None:
        """Publishing needs a passed check at the synced content (Assignment.clean refuses)."""
        unchecked = [p.slug for p in Problem.objects.filter(active=True) if not p.publishable]
        if not check:
            if unchecked:
                self.stdout.write(
                    "not publishable until checked (manage.py check_problem or sync_problems "
                    f"--check): {', '.join(unchecked)}"
                )
            return
        refused = []
        for slug in unchecked:
            report = problem_check_record(slug=slug)
            self.stdout.write(format_report(report))
            if not report.passed:
                refused.append(slug)
        if refused:
            raise CommandError(f"not publishable: {', '.join(refused)}")
