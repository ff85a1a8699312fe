from axes.apps import AppConfig as AxesAppConfig
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    # Said outright: this module also holds AxesConfig, and with two configs Django picks neither
    # for "accounts" (its ready() and the role sync after migrate would silently not run).
    default = True
    name = "accounts"
    verbose_name = _("账户")

    def ready(self) -> None:
        from accounts import signals  # noqa: F401


class AxesConfig(AxesAppConfig):
    """django-axes as installed here: its admin section is named in the page's language (the
    package names it "Axes", in English only). Staff look up a locked-out student there."""

    verbose_name = _("登录限制")
