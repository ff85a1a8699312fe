from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LecturesConfig(AppConfig):
    name = "lectures"
    verbose_name = _("讲义")

    def ready(self) -> None:
        from lectures import signals

        signals.connect()
