from __future__ import annotations

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

from gradinglab.services import problems_sync


class Command(BaseCommand):
    help = "Load problem packages (gradinglab/problems/<slug>/) into the database; idempotent."

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
