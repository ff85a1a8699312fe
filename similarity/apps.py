from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SimilarityConfig(AppConfig):
    name = "similarity"
    verbose_name = _("相似度检查")
