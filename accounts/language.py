"""The language of the page being rendered, said once for every app."""

from __future__ import annotations

from django.utils.translation import get_language


def page_lang() -> str:
    """ "en" when the reader chose English, else "zh" (the site's language, also with no request)."""
    return "en" if (get_language() or "").startswith("en") else "zh"


def in_page_language(zh: str, en: str) -> str:
    """Staff-written or imported words that have an optional English version: the English one on
    English pages when there is one, else the Chinese one."""
    return en if en and page_lang() == "en" else zh
