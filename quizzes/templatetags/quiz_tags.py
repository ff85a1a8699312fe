"""Small template helpers: inline `code` and fenced code blocks in stems, plain-text snippets of
stems for staff tables, the lecture link of a section anchor."""

from __future__ import annotations

import re

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import Truncator

from accounts.language import in_page_language
from lectures.plaintext import plain_text
from lectures.rendering import highlight_code

register = template.Library()
_CODE = re.compile(r"`([^`]+)`")
# A fenced block in a code-reading stem: ```cuda … ``` (the bank's only block markup).
_FENCE = re.compile(r"^```(?P<lang>[\w+-]*)[ \t]*\n(?P<code>.*?)^```[ \t]*$", re.S | re.M)


@register.filter
def inline_code(text: str) -> SafeString:
    """Escape, then render `backticked` spans as <code> (the bank's only markup)."""
    return mark_safe(_CODE.sub(r"<code>\1</code>", escape(text)))


@register.filter
def stem_text(text: str) -> SafeString:
    """The stem's prose (fenced code blocks cut out), with inline `code`."""
    return inline_code(_FENCE.sub("", text).strip())


@register.filter
def stem_code(text: str) -> SafeString:
    """The stem's fenced code blocks, highlighted exactly like lecture code (Pygments)."""
    blocks = [highlight_code(m["code"], m["lang"]) for m in _FENCE.finditer(text)]
    return mark_safe("".join(blocks))


@register.filter
def percent(value: float | None) -> str:
    return "—" if value is None else f"{value * 100:.0f}%"


@register.filter
def signed(value: float | None) -> str:
    return "—" if value is None else f"{value:+.2f}"


_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@register.filter
def stem_template(text: str) -> str:
    """A parameterised stem without its raw format fields: "{m}×{m}" reads as "m×m"."""
    return _PLACEHOLDER.sub(r"\1", text)


SNIPPET_CHARS = 60  # characters of a stem in one table cell of the staff pages


@register.filter
def shown_stem(question) -> str:
    """A question's stem in the page's language (its English one on English pages, if written)."""
    return in_page_language(question.stem, question.stem_en)


@register.filter
def stem_snippet(text: str, length: int = SNIPPET_CHARS) -> str:
    """A stem as a short plain-text line (staff quiz editor, item analysis): Markdown markup
    (code fences, backticks, emphasis) dropped by the same rules as the lecture search snippets,
    format fields read as names, then cut to ``length`` characters. Not marked safe: escaped."""
    return Truncator(stem_template(plain_text(text))).chars(length)


_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")


@register.filter
def lang_of(text: str) -> str:
    """The lang attribute of a piece of question text: bank questions are Chinese or English."""
    return "zh-CN" if _CJK.search(str(text or "")) else "en"
