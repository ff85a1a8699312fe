from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.translation import gettext_lazy as _

register = template.Library()

_STATUS = {
    "not_started": _("未开始"),
    "missing": _("缺交"),
    "submitted": _("已提交（成绩未发布）"),
    "graded": _("已评分"),
    "released": _("已发布"),
    "excused": _("免做"),
}


@register.filter
def status_label(status: str) -> str:
    return str(_STATUS.get(status, status))


@register.filter
def pts(value: Decimal | int | str | None) -> str:
    """Points without trailing zeros (7.50 -> 7.5); a dash when there is no value.

    Templates hand over "" for a missing attribute (e.g. no Grade row), so that is a dash too.
    """
    if value is None or value == "":
        return "—"
    text = f"{Decimal(value):f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


@register.filter
def get_item(mapping: dict, key: str):
    return mapping.get(key)
