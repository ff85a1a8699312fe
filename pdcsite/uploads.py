"""What every CSV file must be before any app parses it, and the one way apps read it: the roster
(uploaded, or given to ``manage.py import_roster``) and a grade import."""

from __future__ import annotations

import csv
import io

from django import forms
from django.utils.translation import gettext as _


def csv_text(raw: bytes) -> str:
    """The file's text: UTF-8, its byte-order mark dropped (spreadsheet programs write one). A
    file that is not UTF-8, or holds a NUL character (no CSV cell does, and PostgreSQL stores
    none: a roster name with one passed the preview and failed the import with a server error), or
    that the csv module cannot read, is the form's ValidationError."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        # Excel for Chinese Windows saves "CSV" as GBK: say which of its types to pick instead.
        raise forms.ValidationError(
            _(
                "文件不是 UTF-8 编码的 CSV。在 Excel 中用“另存为”，"
                "保存类型选“CSV UTF-8（逗号分隔）”，再上传一次。"
            )
        ) from exc
    if "\x00" in text:
        raise forms.ValidationError(_("文件含有空字符（NUL），不是文本 CSV。"))
    _check_readable(text)
    return text


def csv_dict_reader(text: str) -> csv.DictReader:
    """Records of `text` (from csv_text) keyed by the header row."""
    return csv.DictReader(_lines(text))


def _lines(text: str) -> io.StringIO:
    # newline="" as the csv module asks: it splits records on CR, LF or CRLF itself, so a file
    # whose lines end in a lone CR (classic Mac spreadsheets) reads instead of failing. The BOM is
    # dropped again for text that did not come through csv_text.
    return io.StringIO(text.lstrip("\ufeff"), newline="")


def _check_readable(text: str) -> None:
    """Read the whole file once, so a csv.Error (a server error while the apps iterate) is the
    form's error here. The readers use the same dialect, so what passes reads there too."""
    reader = csv.reader(_lines(text))
    try:
        for _row in reader:
            pass
    except csv.Error as exc:
        # The csv module says only this in English; its field limit is a cell's length in
        # characters (131072 by default): no roster or score cell comes near it.
        if "field larger than field limit" in str(exc):
            raise forms.ValidationError(
                _("第 %(line)d 行有单元格超过 %(max)d 个字符。")
                % {"line": reader.line_num, "max": csv.field_size_limit()}
            ) from exc
        raise forms.ValidationError(
            _("第 %(line)d 行不是有效的 CSV。") % {"line": reader.line_num}
        ) from exc
