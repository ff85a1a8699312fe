from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GradebookConfig(AppConfig):
    name = "gradebook"
    verbose_name = _("成绩")
