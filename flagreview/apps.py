from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class FlagreviewConfig(AppConfig):
    name = "flagreview"
    verbose_name = _("标记复查")
