"""A TA's verdict goes through the gradebook: restore = the lab's per-submission override (audit
rows, the item re-derived); keep and hide = an audit note. One verdict per result."""

from __future__ import annotations

from decimal import Decimal

import pytest

from flagreview import services
from gradebook.models import Grade, GradeEvent


def test_restore_through_the_page_changes_the_grade_with_audit_rows(
    rejected, client_ta, ta, student_a
) -> None:
    assert Grade.objects.get(student=student_a).points == Decimal("0.00")
    page = client_ta.get(f"/flags/submissions/{rejected.pk}/").content.decode()
    assert 'value="10.00"' in page  # suggested: the points of the run accepted as measured
    response = client_ta.post(
        f"/flags/submissions/{rejected.pk}/verdict/",
        {"decision": "restore", "points": "10", "reason": "device table was wrong"},
    )
    assert response.status_code == 302
    assert Grade.objects.get(student=student_a).points == Decimal("10.00")
    override = GradeEvent.objects.get(action="sub_override")
    assert override.actor == ta and "device table was wrong" in override.reason
    assert GradeEvent.objects.filter(action="record", new_points=Decimal("10.00")).exists()
    again = client_ta.post(
        f"/flags/submissions/{rejected.pk}/verdict/", {"decision": "keep", "reason": "again"}
    )
    assert again.status_code == 409 and "已经有结论" in again.content.decode()


def test_keep_writes_an_audit_note_and_leaves_the_score(rejected, ta, student_a) -> None:
    services.flag_verdict_record(submission=rejected, actor=ta, decision="keep", reason="cached")
    note = GradeEvent.objects.get(action="flag_keep")
    assert note.student == student_a and "cached" in note.reason
    assert Grade.objects.get(student=student_a).points == Decimal("0.00")
    with pytest.raises(services.FlagError):
        services.flag_response_create(submission=rejected, student=student_a, text="late")
