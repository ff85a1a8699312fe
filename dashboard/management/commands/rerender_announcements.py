"""Deploy step: refresh the stored HTML of every announcement (dashboard.services)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from dashboard.services import announcements_rerender


class Command(BaseCommand):
    help = "Store every announcement's body as the current renderer draws it; idempotent."

    def handle(self, *args, **options) -> None:
        counts = announcements_rerender()
        self.stdout.write(", ".join(f"{k} {v}" for k, v in counts.items()))
        if counts["errors"]:
            # Not a failed deploy: such an announcement still shows its HTML of the last save.
            self.stderr.write(
                f"{counts['errors']} announcement(s) failed to render and kept their HTML (logged)"
            )
