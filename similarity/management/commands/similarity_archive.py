"""Export this term's fingerprints (no code, no names) or import an earlier term's.

manage.py similarity_archive export --term 2026-fall -o archive.json [--assignment ID ...]
manage.py similarity_archive import archive.json
"""

from __future__ import annotations

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError, CommandParser

from gradinglab.models import Assignment
from similarity.archive import ArchiveError
from similarity.services import archive_export, archive_import


class Command(BaseCommand):
    help = "Export or import a similarity archive of fingerprints (hashes only)."

    def add_arguments(self, parser: CommandParser) -> None:
        sub = parser.add_subparsers(dest="action", required=True)
        export = sub.add_parser("export")
        export.add_argument("--term", required=True)
        export.add_argument("-o", "--output", required=True)
        export.add_argument("--assignment", type=int, action="append", default=[])
        load = sub.add_parser("import")
        load.add_argument("path")

    def handle(self, *args, **options) -> None:
        try:
            if options["action"] == "export":
                self._export(options)
            else:
                self._import(Path(options["path"]))
        except ArchiveError as exc:
            raise CommandError(str(exc)) from exc

    def _export(self, options: dict) -> None:
        assignments = Assignment.objects.select_related("problem").order_by("pk")
        if options["assignment"]:
            assignments = assignments.filter(pk__in=options["assignment"])
        document = archive_export(assignments=list(assignments), term=options["term"])
        Path(options["output"]).write_text(json.dumps(document), encoding="utf-8")
        self.stdout.write(f"exported {len(document['entries'])} entries to {options['output']}")

    def _import(self, path: Path) -> None:
        try:
            raw = path.read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {path}: {exc.strerror}") from exc
        term, added = archive_import(raw=raw)
        self.stdout.write(f"imported {added} entries of term {term}")
