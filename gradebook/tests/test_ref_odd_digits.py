"""A ref whose id is a digit to `str.isdigit()` but not to `int()` ("submission:²", typed into the
admin or left by old data) shows as stored, never as a server error: the pages read a ref's id with
`gradebook.refs.ref_split` (`pdcsite.params.query_id`'s rule), not `isdigit()` then `int()`."""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from django.utils import timezone

import gradinglab.admin
from gradebook import refs
from gradebook.models import GradeItem
from gradebook.templatetags.gradebook_tags import ref_label, ref_link
from gradinglab.models import Submission
from gradinglab.services.results import assignment_grade_sync
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db

ODD = ["submission:²", "quiz-attempt:٣", "submission:99999999999999999999", "submission:0"]


@pytest.mark.parametrize("ref", ODD)
def test_an_odd_id_is_no_id(ref: str) -> None:
    assert refs.ref_split(ref)[1] is None
    assert ref_link(ref) == "—"
    assert ref_label(ref) == ref


def test_a_plain_id_still_reads() -> None:
    assert refs.ref_split("submission:12") == ("submission", 12)
    assert ref_label("submission:12") == "提交 #12"
    assert '">提交 #12</a>' in ref_link("submission:12")


def test_a_regrade_request_about_submission_superscript_two_renders(
    client_a, client_ta, student_a, stored_regrade
) -> None:
    item = GradeItem.objects.create(key="lab:odd", title="odd", max_points=10)
    request = stored_regrade(student_a, item, "submission:²")
    for client in (client_a, client_ta):
        page = client.get(f"/grades/regrades/{request.pk}/")
        assert page.status_code == 200
        assert '<dd id="regrade-ref">—</dd>' in page.content.decode()
    queue = client_ta.get("/grades/staff/regrades/")
    assert queue.status_code == 200
    assert "submission:²" in queue.content.decode()


def test_the_change_score_page_takes_an_odd_counted_ref(client_ta, student_a, monkeypatch) -> None:
    assignment = make_assignment(title="向量加法实验")
    sub = Submission.objects.create(
        assignment=assignment,
        student=student_a,
        backend="triton",
        source="a",
        sha256="a" * 64,
        created_at=timezone.now(),
        status="accepted",
        score=Decimal("10.00"),
    )
    assignment_grade_sync(assignment=assignment, student=student_a)
    real = gradinglab.admin.item_result

    def odd(student, item):
        return dataclasses.replace(real(student, item), ref="submission:²")

    monkeypatch.setattr(gradinglab.admin, "item_result", odd)
    page = client_ta.get(f"/admin/gradinglab/submission/{sub.pk}/override/")
    assert page.status_code == 200
    assert '<td id="counted-submission">—</td>' in page.content.decode()
