from django.db.models.signals import post_migrate
from django.dispatch import receiver


@receiver(post_migrate)
def _sync_roles_after_migrate(sender, **kwargs) -> None:
    # Runs once per migrated app; the last run sees every model's permissions.
    from accounts.roles import roles_sync

    roles_sync()
