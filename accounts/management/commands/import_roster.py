from pathlib import Path

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from accounts.services import (
    INVITE_WINDOW_S,
    INVITES_PER_USER_PER_WINDOW,
    RosterDemotionUnconfirmed,
    RosterError,
    roster_import,
    roster_invite_many,
)
from pdcsite.uploads import csv_text


class Command(BaseCommand):
    help = (
        "Import a roster CSV (student_id,name,email,role[,section]); atomic, re-runnable. "
        "Everyone in the file who has no password yet gets an invitation email with a "
        "set-your-password link (--no-invite to skip)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)
        parser.add_argument(
            "--confirm-demotions",
            action="store_true",
            help="allow rows that lower a TA's or instructor's role (refused otherwise)",
        )
        parser.add_argument(
            "--no-invite", action="store_true", help="import only; send no invitation email"
        )

    def handle(
        self, *args, file: Path, no_invite: bool, confirm_demotions: bool, **options
    ) -> None:
        with translation.override("en"):  # the command speaks English, its row reasons too
            self._import(file, no_invite, confirm_demotions)

    def _import(self, file: Path, no_invite: bool, confirm_demotions: bool) -> None:
        try:
            text = csv_text(file.read_bytes())
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc}") from exc
        except ValidationError as exc:
            raise CommandError(f"cannot read {file}: {' '.join(exc.messages)}") from exc
        try:
            result = roster_import(text=text, demotions_confirmed=confirm_demotions)
        except RosterError as exc:
            lines = "\n".join(f"  line {line}: {reason}" for line, reason in exc.errors)
            hint = (
                " (or pass --confirm-demotions)"
                if isinstance(exc, RosterDemotionUnconfirmed)
                else ""
            )
            raise CommandError(f"{file}: nothing imported; fix these rows{hint}:\n{lines}") from exc
        self.stdout.write(
            f"roster imported: {result.created} created, {result.updated} updated, {result.unchanged} unchanged"
        )
        if no_invite:
            return
        invites = roster_invite_many(user_ids=result.pending_ids)
        self.stdout.write(
            f"invitations (to users without a password): {invites.sent} sent, "
            f"{invites.skipped} without an address"
        )
        if invites.throttled:
            self.stdout.write(
                f"not sent again to {', '.join(invites.throttled)}: at most "
                f"{INVITES_PER_USER_PER_WINDOW} invitations per person per "
                f"{INVITE_WINDOW_S // 3600} hours"
            )
        if invites.failed:
            raise CommandError(
                f"the roster is imported, but mail to {', '.join(invites.failed)} failed; "
                "run the import again to retry them"
            )
