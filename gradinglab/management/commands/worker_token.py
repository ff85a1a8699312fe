from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from gradinglab.services.workers import WorkerSpecInvalid, worker_token_create


class Command(BaseCommand):
    help = (
        "Create (or rotate) a grading worker credential: `worker_token create <name> --kind h100`."
    )

    def add_arguments(self, parser) -> None:
        parser.add_argument("action", choices=["create"])
        parser.add_argument("name")
        parser.add_argument("--kind", default="cpu", help="cpu or a GPU kind (PDC_GPU_KINDS)")
        parser.add_argument(
            "--device",
            default="",
            help='exact GPU model, as torch.cuda.get_device_name() prints it ("NVIDIA H100 PCIe"): '
            "the web side checks physical floors for it (default: the fastest GPU of the kind)",
        )

    def handle(self, *args, action: str, name: str, kind: str, device: str, **options) -> None:
        try:
            raw = worker_token_create(name=name, kind=kind, device=device)
        except WorkerSpecInvalid as exc:
            raise CommandError(str(exc)) from exc
        self.stderr.write("Set this as PDC_WORKER_TOKEN on the worker host (shown once):")
        self.stdout.write(raw)
