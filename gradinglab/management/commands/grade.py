"""`python manage.py grade <slug> <file> [--backend triton|cuda] [--json]`: the worker's path."""

from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from gradinglab.runner import cli


class Command(BaseCommand):
    help = "Grade one submission file exactly as the worker does (exit 0/1/2/3, see docs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("file")
        parser.add_argument("--backend", choices=["triton", "cuda"])
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        code = cli.run_grade(
            options["slug"], options["file"], options["backend"], options["json"], self.stdout
        )
        sys.exit(code)
