from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GradinglabConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gradinglab"
    verbose_name = _("实验")
