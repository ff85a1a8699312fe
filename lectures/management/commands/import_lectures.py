from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lectures.services import content_import


class Command(BaseCommand):
    help = "Import lecture Markdown files (and the course pages beside them) into the database."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "dir",
            nargs="?",
            default=str(Path(settings.BASE_DIR) / "content" / "lectures"),
            help="directory of lecture-NN.md files (default: content/lectures)",
        )
        parser.add_argument(
            "--pages",
            default=None,
            help="directory of course pages (default: the 'course' folder beside DIR, if any)",
        )
        parser.add_argument(
            "--force", action="store_true", help="overwrite sections staff edited in the admin"
        )

    def handle(self, *args, **options) -> None:
        lectures_dir = Path(options["dir"])
        if not lectures_dir.is_dir():
            raise CommandError(f"{lectures_dir}: not a directory")
        pages = options["pages"] or lectures_dir.parent / "course"
        pages_dir = Path(pages) if Path(pages).is_dir() else None
        report = content_import(
            lectures_dir=lectures_dir, pages_dir=pages_dir, force=options["force"]
        )
        for line in report.conflicts:
            self.stderr.write(self.style.WARNING(f"conflict: {line}"))
        for line in report.errors:
            self.stderr.write(self.style.ERROR(line))
        self.stdout.write(
            f"sections/pages: {len(report.created)} created, {len(report.updated)} updated, "
            f"{len(report.unchanged)} unchanged, {len(report.deleted)} deleted, "
            f"{len(report.conflicts)} conflicts"
        )
        if report.errors:
            raise CommandError(f"{len(report.errors)} file(s) not imported (see errors above)")
