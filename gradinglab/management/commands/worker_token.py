from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from gradinglab.services import worker_token_create


class Command(BaseCommand):
    help = (
        "Create (or rotate) a grading worker credential: `worker_token create <name> --kind h100`."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["create"])
        parser.add_argument("name")
        parser.add_argument("--kind", default="cpu", help="cpu or a GPU kind (PDC_GPU_KINDS)")

    def handle(self, *args, action: str, name: str, kind: str, **options) -> None:
        if kind != "cpu" and kind not in settings.GPU_KINDS:
            raise CommandError(f"unknown kind {kind!r}; use cpu or one of {settings.GPU_KINDS}")
        raw = worker_token_create(name=name, kind=kind)
        self.stderr.write("Set this as PDC_WORKER_TOKEN on the worker host (shown once):")
        self.stdout.write(raw)
