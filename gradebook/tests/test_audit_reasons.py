"""Reasons the system writes into the audit trail are shown in the page's language, codes by
their labels; a staff member's own words are shown as written (gradebook/reasons.py).

A browser walk found the change log of a Chinese staff page saying "submission #1 (accepted)"
and "attempt 1 graded (best)": English text with raw status and method codes."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.conf import settings
from django.utils import translation

from gradebook.models import GradeEvent
from gradebook.reasons import Reason
from gradebook.services import grade_override, grade_record


def _record(student, item, points: int, reason: str) -> None:
    grade_record(student=student, item=item, points=Decimal(points), source="lab", reason=reason)


def _audit_cells(client, student) -> list[str]:
    page = client.get(f"/grades/staff/students/{student.pk}/").content.decode()
    table = page.split('id="audit"', 1)[1].split("</table>", 1)[0]
    return table.split("<tr")


@pytest.mark.django_db
def test_system_reasons_in_the_pages_language_with_labels(
    client_ta, make_item, student_a, ta
) -> None:
    lab, quiz = make_item("lab:1"), make_item("quiz:1")
    _record(student_a, lab, 5, Reason("submission_best", submission=7, status="accepted"))
    _record(student_a, quiz, 6, Reason("attempt_graded", number=2, method="best"))
    _record(student_a, lab, 4, Reason("csv_import", line=12))

    chinese = "".join(_audit_cells(client_ta, student_a))
    assert "提交 #7（通过）" in chinese
    assert "第 2 次作答已评分（最高分）" in chinese
    assert "CSV 导入，第 12 行" in chinese
    assert "(accepted)" not in chinese and "graded (best)" not in chinese

    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = "".join(_audit_cells(client_ta, student_a))
    assert "submission #7 (Accepted)" in english
    assert "attempt 2 graded (Best)" in english
    assert "CSV import, line 12" in english
    assert "提交" not in english


@pytest.mark.django_db
def test_the_reason_column_keeps_the_english_text_and_staff_words_stay_as_written(
    client_ta, make_item, student_a, ta
) -> None:
    item = make_item("lab:1")
    _record(student_a, item, 5, Reason("submission_best", submission=7, status="accepted"))
    grade_override(student=student_a, item=item, points=Decimal(9), actor=ta, reason=" 补交 ")
    system, staff = GradeEvent.objects.order_by("pk")
    assert system.reason == "submission #7 (Accepted)"  # exports and older readers
    assert system.reason_parts == {
        "id": "submission_best",
        "args": {"submission": "7", "status": "accepted"},
    }
    assert staff.reason == "补交" and staff.reason_parts == {}
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert '<td data-content data-label="Reason">补交</td>' in "".join(
        _audit_cells(client_ta, student_a)
    )


@pytest.mark.django_db
def test_rows_written_before_parts_are_read_back_from_their_english(make_item, student_a) -> None:
    """An upgraded database's rows hold only the English the code wrote then (a second browser
    walk still saw "submission #1 (accepted)" on Chinese pages): they are said again too."""
    item = make_item("lab:1")
    old = {
        "submission #3 (accepted)": ("提交 #3（通过）", "submission #3 (Accepted)"),
        "attempt 1 graded (best)": ("第 1 次作答已评分（最高分）", "attempt 1 graded (Best)"),
        "submission #4: 5.00 -> 7.00; 补交": (
            "提交 #4：5.00 → 7.00；补交",
            "submission #4: 5.00 → 7.00; 补交",
        ),
        "submission #4 score set by staff": ("提交 #4 的分数由助教设定", None),
        "regrade run #2 by ta1": ("重新评测 #2，由 ta1 发起", None),
        "regrade #9: 已复核\n见备注": ("复核申请 #9：已复核\n见备注", None),
        "CSV import, line 12": ("CSV 导入，第 12 行", None),
    }
    for points, text in enumerate(old, start=1):  # a new score each time: each writes a row
        _record(student_a, item, points, text)
    events = list(GradeEvent.objects.order_by("pk"))
    assert all(e.reason_parts == {} for e in events)
    for event, (zh, en) in zip(events, old.values(), strict=True):
        assert event.shown_reason == zh
        if en:
            with translation.override("en"):
                assert event.shown_reason == en


@pytest.mark.django_db
def test_other_text_and_unknown_parts_show_the_text(make_item, student_a) -> None:
    _record(student_a, make_item("lab:1"), 5, "补交，见邮件 (late: see e-mail)")
    event = GradeEvent.objects.get()
    assert event.shown_reason == "补交，见邮件 (late: see e-mail)"
    for parts in ({"id": "gone"}, {"id": "csv_import", "args": {}}, {"id": "csv_import"}):
        GradeEvent.objects.filter(pk=event.pk).update(reason_parts=parts)
        event.refresh_from_db()
        assert event.shown_reason == "补交，见邮件 (late: see e-mail)"
