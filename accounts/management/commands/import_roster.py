from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.services import RosterError, roster_import


class Command(BaseCommand):
    help = "Import a roster CSV (student_id,name,email,role[,section]); atomic, re-runnable."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", type=Path)

    def handle(self, *args, file: Path, **options) -> None:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise CommandError(f"cannot read {file}: {exc}") from exc
        try:
            result = roster_import(text=text)
        except RosterError as exc:
            lines = "\n".join(f"  line {line}: {reason}" for line, reason in exc.errors)
            raise CommandError(f"{file}: nothing imported; fix these rows:\n{lines}") from exc
        self.stdout.write(
            f"roster imported: {result.created} created, {result.updated} updated, {result.unchanged} unchanged"
        )
