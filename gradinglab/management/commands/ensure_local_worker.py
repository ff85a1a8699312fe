from __future__ import annotations

import json
import os
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand

from gradinglab.models import WorkerNode
from gradinglab.services.workers import worker_token_create
from gradinglab.worker.config import LOCAL_CREDENTIAL

LOCAL_NAME = "local-cpu"


class Command(BaseCommand):
    help = "Development: make sure var/local-worker.json holds a valid CPU worker credential."

    def handle(self, *args, **options) -> None:
        path = settings.VAR_DIR / LOCAL_CREDENTIAL
        if path.exists() and WorkerNode.objects.filter(name=LOCAL_NAME, active=True).exists():
            saved = json.loads(path.read_text(encoding="utf-8"))
            from gradinglab.models import token_hash

            if WorkerNode.objects.filter(token_hash=token_hash(saved.get("token", ""))).exists():
                # The site may have moved to another port (PDC_PORT) since the file was written.
                _write(path, saved["token"])
                self.stdout.write(f"local worker credential ok ({path})")
                return
        _write(path, worker_token_create(name=LOCAL_NAME, kind="cpu"))
        self.stdout.write(f"local worker credential written to {path}")


def _write(path: Path, raw: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump({"token": raw, "api_url": settings.PDC_SITE_URL, "kind": "cpu"}, out)
