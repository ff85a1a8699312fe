from __future__ import annotations

from django.core.management.base import BaseCommand

from gradinglab.services.reaper import submissions_reap


class Command(BaseCommand):
    help = "Re-queue submissions stuck past their time limit (bounded; then infrastructure_error)."

    def handle(self, *args, **options) -> None:
        counts = submissions_reap()
        self.stdout.write(", ".join(f"{k} {v}" for k, v in counts.items()))
