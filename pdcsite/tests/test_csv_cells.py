"""pdcsite.csvcells.plain: what a spreadsheet would run as a formula is sent as text; other text,
the quote included, is sent as it is."""

from __future__ import annotations

import pytest

from pdcsite.csvcells import plain


@pytest.mark.parametrize("text", ["=1+1", "+86 10", "-x", "@A1", "\t=1", "\r=1"])
def test_a_formula_start_gets_a_quote(text: str) -> None:
    assert plain(text) == "'" + text


@pytest.mark.parametrize("text", ["", "张三", "Ann =1", "'=1", " =1", "1-2"])
def test_other_text_is_left_alone(text: str) -> None:
    assert plain(text) == text
