"""Real Chromium (Must hold 7): a TA grants an extension and overrides a score with a reason; the
student then sees the new score and the reason on 我的成绩."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import GradeEvent, GradeItem
from gradebook.services import grade_item_ensure, grade_record
from tests.phonecards import measured_on_a_phone, misplaced_on_a_phone, offset_on_a_phone

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

REASON = "复核：第 3 个测试用例误判"


def _late_lab(student) -> GradeItem:
    due = (timezone.now() - timedelta(days=4)).replace(second=0, microsecond=0)
    item = grade_item_ensure(key="lab:2", title="矩阵转置", kind="lab", max_points=100, due_at=due)
    GradeItem.objects.filter(pk=item.pk).update(late_policy="penalty", late_penalty_per_day=10)
    grade_record(
        student=student,
        item=item,
        points=Decimal(80),
        source="lab",
        submitted_at=due + timedelta(hours=30),
    )
    return item


def _row(page, key: str):
    return page.locator(f'tr[data-key="{key}"]')


def test_ta_extends_and_overrides_student_sees_score_and_reason(
    live_server, browser_page, login, student_a, ta
) -> None:
    item = _late_lab(student_a)
    page = browser_page

    login(page, "student_a")
    page.goto(f"{live_server.url}/grades/")
    assert "扣 20%" in _row(page, "lab:2").inner_text()  # 2 started days late × 10 %
    assert _row(page, "lab:2").locator(".counted").inner_text().strip() == "64"
    page.click("form[action='/accounts/logout/'] button")

    login(page, "ta")
    page.goto(f"{live_server.url}/grades/staff/")
    page.click("tr[data-student='student_a'] a")
    page.wait_for_url(f"**/grades/staff/students/{student_a.pk}/")
    new_due = timezone.localtime(item.due_at + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    page.select_option("#id_extension-item", str(item.pk))
    page.fill("#id_extension-due_at", new_due)
    page.fill("#id_extension-reason", "病假")
    page.click("#extension-form button[type=submit]")
    page.wait_for_selector(".msg-success")
    row = _row(page, "lab:2").inner_text()
    assert "已延期" in row and "80" in row and "20%" not in row

    page.select_option("#id_override-item", str(item.pk))
    page.fill("#id_override-points", "95")
    page.fill("#id_override-reason", REASON)
    page.click("#override-form button[type=submit]")
    page.wait_for_selector(".msg-success")
    audit = page.locator("#audit").inner_text()
    assert REASON in audit and "病假" in audit
    _staff_tables_are_cards_on_a_phone(page, live_server, item)
    page.click("form[action='/accounts/logout/'] button")

    login(page, "student_a")
    page.goto(f"{live_server.url}/grades/")
    row = _row(page, "lab:2")
    assert row.locator(".points").inner_text().strip() == "95"
    assert row.locator(".counted").inner_text().strip() == "95"  # the extension removed the penalty
    assert REASON in row.inner_text() and "已延期" in row.inner_text()
    assert page.locator("#course-total").inner_text().strip() == "95%"
    actions = list(GradeEvent.objects.filter(item=item).values_list("action", flat=True))
    assert actions == ["record", "extension", "override"]
    _score_in_sight_on_a_phone(page)


def _score_in_sight_on_a_phone(page) -> None:
    """At 390 px each item is a card: the score is on screen, after its column's name (it was the
    fifth of ten columns, scrolled out of sight to the right)."""
    m = measured_on_a_phone(page, "#my-grades", 'tr[data-key="lab:2"] td.points')
    assert m["right"] <= m["inner"] and m["page"] <= m["inner"], m
    assert m["wrap"] <= m["wrapClient"], m  # nothing to scroll sideways inside the wrapper either
    assert m["label"] == '"得分"', m
    # The extension's "已延期" badge stays beside the date, not under the column's name.
    assert misplaced_on_a_phone(page, "#my-grades") == []
    # The note (the override's reason, in a smaller font) starts its value where the other lines do.
    assert offset_on_a_phone(page, "#my-grades") == []


def _staff_tables_are_cards_on_a_phone(page, live_server, item: GradeItem) -> None:
    """At 390 px the staff's per-student items, its change log and an item's students are cards:
    the counted score is on screen after its column's name (each was a table of 6 to 10 columns
    scrolled sideways), and the two-part values (a title and its "unreleased" badge, a date and
    its "extended" badge) stay beside their names."""
    for table, cell, label in (
        ("#student-items", 'tr[data-key="lab:2"] td.counted', '"计入"'),
        ("#audit", 'tr[data-action="override"] td:nth-child(6)', '"新分"'),
    ):
        m = measured_on_a_phone(page, table, cell)
        assert m["right"] <= m["inner"] and m["page"] <= m["inner"], (table, m)
        assert m["wrap"] <= m["wrapClient"] and m["label"] == label, (table, m)
        assert misplaced_on_a_phone(page, table) == [], table
        assert offset_on_a_phone(page, table) == [], table
    page.goto(f"{live_server.url}/grades/staff/items/{item.pk}/")
    m = measured_on_a_phone(page, "#item-students", 'tr[data-student="student_a"] td.counted')
    assert m["right"] <= m["inner"] and m["wrap"] <= m["wrapClient"], m
    assert m["label"] == '"计入"', m
    page.go_back()
