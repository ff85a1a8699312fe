"""The language of the page being rendered, said once for every app."""

from __future__ import annotations

from django import forms
from django.utils.translation import get_language


def page_lang() -> str:
    """ "en" when the reader chose English, else "zh" (the site's language, also with no request)."""
    return "en" if (get_language() or "").startswith("en") else "zh"


def in_page_language(zh: str, en: str) -> str:
    """Staff-written or imported words that have an optional English version: the English one on
    English pages when there is one, else the Chinese one."""
    return en if en and page_lang() == "en" else zh


def mark_field_languages(fields: dict) -> None:
    """A form field ``x`` with an English twin ``x_en`` holds the Chinese version: each input
    carries its language (lang="zh-CN" / "en"), so its value is read right on a page of the other."""
    for name in fields:
        if name.endswith("_en") and name.removesuffix("_en") in fields:
            fields[name.removesuffix("_en")].widget.attrs["lang"] = "zh-CN"
            fields[name].widget.attrs["lang"] = "en"


class LanguageMarkedModelForm(forms.ModelForm):
    """A model form (the admin's included) whose Chinese/English field pairs say their language."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        mark_field_languages(self.fields)
