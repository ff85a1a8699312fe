import os

from django.core.management.base import BaseCommand

from accounts.services import DEMO_USERS, user_create_with_role


class Command(BaseCommand):
    help = "Create the demo users (student1, student2, ta1, instructor1) and print their passwords."

    def handle(self, *args, **options) -> None:
        # A fixed, documented demo password keeps `make run` reproducible; override per deployment.
        password = os.environ.get("PDC_DEMO_PASSWORD", "pdc-demo-2026")
        for username, role in DEMO_USERS:
            user_create_with_role(username=username, password=password, role=role)
            self.stdout.write(f"  {username:<12} role={role:<10} password={password}")
