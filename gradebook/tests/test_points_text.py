"""`|points_text`: points with their unit, singular for exactly one point in English."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.utils import translation

from gradebook.templatetags.gradebook_tags import points_text


@pytest.mark.parametrize(
    ("value", "en", "zh"),
    [
        (Decimal("1"), "1 point", "1 分"),
        (Decimal("1.00"), "1 point", "1 分"),
        (Decimal("2.50"), "2.5 points", "2.5 分"),
        (Decimal("0.5"), "0.5 points", "0.5 分"),
        (Decimal("0"), "0 points", "0 分"),
        ("100", "100 points", "100 分"),
    ],
)
def test_points_text(value, en, zh) -> None:
    with translation.override("en"):
        assert points_text(value) == en
    with translation.override("zh-hans"):
        assert points_text(value) == zh
