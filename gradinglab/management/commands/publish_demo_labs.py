from django.core.management.base import BaseCommand

from gradinglab.services.problem_sync import assignments_publish_demo


class Command(BaseCommand):
    help = "Demo only (`make run`): publish a CPU-graded assignment for each problem that has none."

    def handle(self, *args, **options) -> None:
        self.stdout.write(f"published {assignments_publish_demo()} demo lab assignment(s)")
