"""What every CSV file must be before any app parses it: the roster (uploaded, or given to
``manage.py import_roster``) and a grade import."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext as _


def csv_text(raw: bytes) -> str:
    """The file's text: UTF-8, its byte-order mark dropped (spreadsheet programs write one). A
    file that is not UTF-8, or holds a NUL character (no CSV cell does, and PostgreSQL stores
    none: a roster name with one passed the preview and failed the import with a server error), is
    the form's ValidationError."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise forms.ValidationError(_("文件不是 UTF-8 编码的 CSV。")) from exc
    if "\x00" in text:
        raise forms.ValidationError(_("文件含有空字符（NUL），不是文本 CSV。"))
    return text
