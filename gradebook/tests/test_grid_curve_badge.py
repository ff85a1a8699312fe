"""The staff grid marks a curved item in its column header with the badge the student's page
writes beside a curved score ("曲线 +5" / "curve ×1.1"), titled with what the curve does; an item
without a curve has none, and removing the curve takes it away."""

from __future__ import annotations

import re

import pytest

from gradebook.models import GradeItem
from gradebook.services import grade_item_curve_remove, grade_item_curve_set


def _header(page: str, item: GradeItem) -> str:
    """The grid's column header of ``item`` (its link to the item page, to the end of its <th>)."""
    start = page.index(f'href="/grades/staff/items/{item.pk}/"')
    return page[start : page.index("</th>", start)]


@pytest.fixture
def items(make_item, post, student_a) -> tuple[GradeItem, GradeItem]:
    curved, plain = make_item("quiz:1", max_points=100), make_item("quiz:2", max_points=100)
    post(student_a, curved, 60)
    post(student_a, plain, 70)
    return curved, plain


@pytest.mark.django_db
def test_a_curved_items_header_says_its_curve(client_ta, ta, items) -> None:
    curved, plain = items
    grade_item_curve_set(item=curved, kind="add", value="5", actor=ta, reason="偏难")
    page = client_ta.get("/grades/staff/").content.decode()
    header = _header(page, curved)
    assert re.search(
        r'<span class="badge curve" title="本项所有已评分学生的计入分数按曲线 \+5 调整[^"]*">曲线 \+5</span>',
        header,
    ), header
    assert "badge curve" not in _header(page, plain)
    grade_item_curve_remove(item=curved, actor=ta, reason="已补考")
    assert "badge curve" not in _header(client_ta.get("/grades/staff/").content.decode(), curved)


@pytest.mark.django_db
def test_the_badge_in_english(client_ta, ta, items) -> None:
    curved, _plain = items
    grade_item_curve_set(item=curved, kind="scale", value="1.1", actor=ta, reason="hard")
    client_ta.cookies["django_language"] = "en"
    header = _header(client_ta.get("/grades/staff/").content.decode(), curved)
    assert ">curve ×1.1</span>" in header
    assert (
        'title="Every graded student&#x27;s counted score on this item is curved by ×1.1' in header
    )


@pytest.mark.django_db
def test_an_unreleased_curved_item_says_both(client_ta, ta, items) -> None:
    curved, _plain = items
    GradeItem.objects.filter(pk=curved.pk).update(released=False)
    grade_item_curve_set(item=curved, kind="add", value="-2", actor=ta, reason="太易")
    header = _header(client_ta.get("/grades/staff/").content.decode(), curved)
    assert "未发布" in header and ">曲线 −2</span>" in header
