from django.core.management.base import BaseCommand

from accounts.roles import roles_sync


class Command(BaseCommand):
    help = "Create the student / ta / instructor groups and set their permissions."

    def handle(self, *args, **options) -> None:
        for role, count in roles_sync().items():
            self.stdout.write(f"{role}: {count} permissions")
