"""Helpers every app's templates use: content text marked with its language, date-times."""

from __future__ import annotations

import re
from datetime import datetime

from django import template
from django.template.defaultfilters import date as date_filter
from django.utils.html import format_html
from django.utils.safestring import SafeString

from pdcsite.moments import form_words, local_text

register = template.Library()

_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


@register.filter
def content(text: object) -> SafeString | str:
    """Course content (titles, stems written in Chinese) carries lang="zh-CN", so that screen
    readers pronounce it right and the one-language check knows it is content, not UI."""
    value = "" if text is None else str(text)
    if _CJK.search(value):
        return format_html('<span lang="zh-CN">{}</span>', value)
    return value


@register.filter
def content_lang(text: object) -> str:
    """lang="zh-CN" for an element that cannot hold markup (an <option>) when its text is Chinese."""
    return "zh-CN" if _CJK.search("" if text is None else str(text)) else ""


@register.filter(expects_localtime=True)
def when(moment: datetime | None, form: str = "") -> SafeString | str:
    """A date-time as the site shows one ("2026-12-20 23:59", the reader's time zone; `|when:"short"`
    leaves out the year, `|when:"seconds"` adds the seconds), in a <time> that does not break
    between the date and the time (.when in site.css); "—" for none."""
    if moment is None or moment == "":
        return "—"
    return format_html(
        '<time class="when" datetime="{}">{}</time>',
        date_filter(moment, "c"),
        local_text(moment, **form_words(form)),
    )


@register.filter(expects_localtime=True)
def when_text(moment: datetime | None, form: str = "") -> str:
    """`when` as plain text, for an element that holds no markup (an <option>)."""
    return local_text(moment, **form_words(form)) if moment not in (None, "") else "—"
