from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from gradinglab.services import problems_sync


class Command(BaseCommand):
    help = "Load problem packages (gradinglab/problems/<slug>/) into the database; idempotent."

    def handle(self, *args, **options) -> None:
        counts = problems_sync()
        errors = counts.pop("errors")
        self.stdout.write(", ".join(f"{k} {v}" for k, v in counts.items()))
        for line in errors:
            self.stderr.write(f"invalid package: {line}")
        if errors:
            raise CommandError(f"{len(errors)} invalid problem package(s); the others were synced")
