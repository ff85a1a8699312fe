from django.apps import apps
from django.db.models.signals import post_migrate
from django.dispatch import receiver


@receiver(post_migrate)
def _sync_roles_after_migrate(sender, **kwargs) -> None:
    # migrate and flush send post_migrate once per app with models, in INSTALLED_APPS order, and
    # auth makes each app's permissions in its own receiver first. Only the last app's signal sees
    # every permission; the runs before it would each redo the whole table (that was most
    # of a test database's set-up and of every transactional test's teardown).
    with_models = [config for config in apps.get_app_configs() if config.models_module is not None]
    if sender is not with_models[-1]:
        return
    from accounts.roles import roles_sync

    roles_sync()
