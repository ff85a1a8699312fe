from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GradebookConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gradebook"
    verbose_name = _("成绩")
