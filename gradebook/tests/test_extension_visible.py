"""A student sees their own extended deadline, marked extended, wherever a due date is shown to
them: the lab list, the problem page and 我的成绩 — also before the item's scores are released."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook.services import extension_grant, item_release_set
from gradinglab.services.results import assignment_grade_item
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db

BADGE = {"zh-hans": "已延期", "en": "Extended"}


def _fmt(moment) -> str:
    return f"{timezone.localtime(moment):%Y-%m-%d %H:%M}"


@pytest.fixture
def extended_lab(student_a, instructor):
    due = (timezone.now() + timedelta(days=10)).replace(second=0, microsecond=0)
    assignment = make_assignment(due_at=due)
    item = item_release_set(
        item=assignment_grade_item(assignment), released=False, actor=instructor
    )
    extension_grant(student=student_a, item=item, actor=instructor, extra_days=2, reason="ill")
    return assignment, due, due + timedelta(days=2)


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_student_sees_the_extended_date(client_a, extended_lab, lang) -> None:
    assignment, due, extended = extended_lab
    client_a.post("/i18n/setlang/", {"language": lang, "next": "/"})
    for url in ("/lab/problems/vector-add/", "/lab/", "/grades/"):
        page = client_a.get(url).content.decode()
        assert _fmt(extended) in page, url
        assert _fmt(due) not in page, url
        assert BADGE[lang] in page, url
    mine = client_a.get("/grades/api/mine").json()
    (lab,) = [i for i in mine["items"] if i["key"] == assignment.grade_item_key]
    assert lab["status"] == "not_started" and lab["points"] is None  # still unreleased


def test_other_students_see_the_assignments_date(client_b, extended_lab) -> None:
    _assignment, due, extended = extended_lab
    for url in ("/lab/problems/vector-add/", "/lab/", "/grades/"):
        page = client_b.get(url).content.decode()
        assert _fmt(due) in page and _fmt(extended) not in page, url
        assert "已延期" not in page, url
