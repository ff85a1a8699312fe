"""`manage.py import_quizzes [DIR]`: validate and import the question bank, then make sure the
per-lecture practice quizzes and the comprehensive 互动自测 exist (published)."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from lectures.notes import NOTES_PATH
from quizzes.bank import BankError, BankFile, load_bank_file, notes_anchors
from quizzes.services import bank_import_file, quizzes_ensure_defaults


def default_dir() -> Path:
    return settings.BASE_DIR / "content" / "quizzes"


def notes_path() -> Path:
    return NOTES_PATH


class Command(BaseCommand):
    help = "Import quiz bank YAML files (atomic per file, idempotent) and create default quizzes."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("dir", nargs="?", type=Path, default=None)
        parser.add_argument("--notes", type=Path, default=None, help="course notes for anchors")
        parser.add_argument("--no-defaults", action="store_true", help="skip default quizzes")

    def handle(
        self, *args, dir: Path | None, notes: Path | None, no_defaults: bool, **opts
    ) -> None:
        directory = dir or default_dir()
        files = sorted(directory.glob("*.yaml")) + sorted(directory.glob("*.yml"))
        if not files:
            raise CommandError(f"{directory}: no *.yaml question files found")
        anchors = self._anchors(notes or notes_path())
        errors: list[str] = []
        banks: list[BankFile] = []
        owner: dict[str, str] = {}
        for path in files:
            try:
                bank = load_bank_file(path, anchors)
                for q in bank.questions:
                    if q.id in owner:
                        raise BankError(path.name, q.id, f"id already used in {owner[q.id]}")
                for q in bank.questions:
                    owner[q.id] = path.name
                banks.append(bank)
            except BankError as exc:
                errors.append(str(exc))
        titles: dict[int, str] = {}
        for bank in banks:
            try:
                result = bank_import_file(bank)
            except BankError as exc:
                errors.append(str(exc))
                continue
            titles[bank.lecture] = bank.title
            self.stdout.write(
                f"  {result.file}: {result.created} new, {result.updated} updated, "
                f"{result.unchanged} unchanged"
            )
        if titles and not no_defaults and not errors:
            quizzes = quizzes_ensure_defaults(titles)
            self.stdout.write(f"  {len(quizzes)} default quizzes ready")
        if errors:
            raise CommandError("rejected:\n" + "\n".join(errors))

    def _anchors(self, path: Path) -> set[str] | None:
        if path.exists():
            return notes_anchors(path)
        from lectures.models import Section

        slugs = set(Section.objects.values_list("slug", flat=True))
        if slugs:
            return slugs
        self.stderr.write(
            f"warning: {path} not found and no lecture sections imported; "
            "section anchors not checked"
        )
        return None
