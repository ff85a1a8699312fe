"""`python manage.py problems [--json]`: list the problem packages on disk."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from gradinglab.runner import cli


class Command(BaseCommand):
    help = "List kernel problem packages (gradinglab/problems/<slug>/)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--json", action="store_true")

    def handle(self, *args: Any, **options: Any) -> None:
        cli.run_problems(options["json"], self.stdout)
