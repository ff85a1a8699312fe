"""The admin's submission actions ask staff for their own words and say the system's part in the
reader's language.

Bulk "标记所选提交" flagged every selected submission with the reason "TA", which each student
then read on their flag's page; an item score set from a submission's admin page was stored as
"<reason> (from submission #N)", English on a Chinese student's /grades/."""

from __future__ import annotations

from html import unescape

import pytest
from django.conf import settings

from conftest import admin_action
from gradebook.models import GradeEvent
from gradinglab.models import Submission
from gradinglab.tests.labkit import two_submissions  # noqa: F401  (fixture)

pytestmark = pytest.mark.django_db

CHANGELIST = "/admin/gradinglab/submission/"


@pytest.fixture
def two(two_submissions) -> list[Submission]:  # noqa: F811
    return list(Submission.objects.filter(pk__in=two_submissions).select_related("student"))


def test_bulk_flag_asks_for_the_reason_first(client_ta, two) -> None:
    page = admin_action(client_ta, CHANGELIST, "flag_selected", *two)
    assert page.status_code == 200
    html = unescape(page.content.decode())
    assert all(f"提交 #{sub.pk}" in html for sub in two) and 'name="reason"' in html
    assert not Submission.objects.filter(flagged=True).exists()  # asking writes nothing


def test_bulk_flag_without_a_reason_is_refused_and_flags_nothing(client_ta, two) -> None:
    pks = [sub.pk for sub in two]
    page = client_ta.post(
        CHANGELIST,
        {"action": "flag_selected", "_selected_action": pks, "apply": "1", "reason": "  "},
    )
    assert page.status_code == 200
    assert "该字段是必填项" in page.content.decode()
    assert not Submission.objects.filter(flagged=True).exists()


def test_bulk_flag_stores_the_staff_reason(client_ta, two) -> None:
    pks = [sub.pk for sub in two]
    done = client_ta.post(
        CHANGELIST,
        {
            "action": "flag_selected",
            "_selected_action": pks,
            "apply": "1",
            "reason": "两份代码都跳过了边界检查",
        },
    )
    assert done.status_code == 302
    rows = Submission.objects.filter(pk__in=pks).values_list("flagged", "flag_reason", "flagged_by")
    assert set(rows) == {(True, "两份代码都跳过了边界检查", Submission.FlaggedBy.STAFF)}


def test_item_score_from_a_submission_is_said_in_the_students_language(
    client_ta, client_a, two
) -> None:
    sub = next(s for s in two if s.student.username == "student_a")
    response = client_ta.post(
        f"/admin/gradinglab/submission/{sub.pk}/override/",
        {"scope": "item", "points": "5", "reason": "设备故障"},
    )
    assert response.status_code == 302
    event = GradeEvent.objects.get(action=GradeEvent.Action.OVERRIDE)
    assert event.reason_parts["id"] == "from_submission"  # written with its parts, not as English
    chinese = unescape(client_a.get("/grades/").content.decode())
    assert f"设备故障（来自提交 #{sub.pk}）" in chinese and "from submission" not in chinese
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = unescape(client_a.get("/grades/").content.decode())
    assert f"设备故障 (from submission #{sub.pk})" in english
