"""The staff desk lists what needs attention; students get 403; the person page links it all."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradebook.models import RegradeRequest
from gradebook.services import grade_item_ensure
from gradinglab.models import GradingJob, Submission, WorkerNode
from gradinglab.tests.labkit import make_assignment
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


def test_dashboard_shows_each_kind_of_attention(client_ta, client_a, student_a) -> None:
    now = timezone.now()
    item = grade_item_ensure(key="exam:mid", title="期中考试", kind="exam", max_points=100)
    item.released = False
    item.save()
    RegradeRequest.objects.create(student=student_a, item=item, message="请复核", created_at=now)
    assignment = make_assignment()
    flagged = Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source="x", sha256="0" * 64,
        created_at=now, flagged=True, flag_reason="可疑计时",
    )  # fmt: skip
    stuck = Submission.objects.create(
        assignment=assignment, student=student_a, backend="triton", source="y", sha256="1" * 64,
        created_at=now - timedelta(days=1),
    )  # fmt: skip
    GradingJob.objects.create(
        submission=stuck, round=stuck.round, token_hash="h", queue="grade-cpu",
        enqueued_at=now - timedelta(days=1),
    )  # fmt: skip
    WorkerNode.objects.create(name="gpu-h200-01", kind="h200", token_hash="t", active=True)
    quiz_with([question_single("dash-1")], slug="closing", title="本周测验",
              closes_at=now + timedelta(days=2))  # fmt: skip
    quiz_with([question_single("dash-2")], slug="later", title="下月测验",
              closes_at=now + timedelta(days=30))  # fmt: skip

    assert client_a.get("/staff/").status_code == 403
    page = client_ta.get("/staff/").content.decode()
    sections = {
        name: page.split(f'id="panel-{name}"')[1].split("</section>")[0]
        for name in ("regrades", "flagged", "stuck", "offline", "closing", "hidden")
    }
    assert "期中考试" in sections["regrades"] and "期中考试" in sections["hidden"]
    assert f"#{flagged.pk}" in sections["flagged"] and "可疑计时" in sections["flagged"]
    assert f"#{stuck.pk}" in sections["stuck"] and f"#{flagged.pk}" not in sections["stuck"]
    assert "gpu-h200-01" in sections["offline"]
    assert "本周测验" in sections["closing"] and "下月测验" not in sections["closing"]


def test_person_page_links_everything(client_ta, client_a, student_a) -> None:
    assert client_a.get(f"/staff/people/{student_a.pk}/").status_code == 403
    page = client_ta.get(f"/staff/people/{student_a.pk}/").content.decode()
    assert f"/grades/staff/students/{student_a.pk}/" in page and "student_a" in page


def test_dashboard_lists_published_labs_whose_package_is_unchecked(client_ta) -> None:
    """The publishing gate refuses a new publication only: a sync that changes a published lab's
    package leaves it published and unchecked, which the desk now says (with a link to run the
    check). Both sides of the rule: never checked, and checked at the current content."""
    assignment = make_assignment(title="向量加法实验")  # the sync leaves the package unchecked
    problem = assignment.problem
    make_assignment(title="草稿实验", published=False)

    def panel() -> str:
        page = client_ta.get("/staff/").content.decode()
        return page.split('id="panel-unchecked"')[1].split("</section>")[0]

    assert "向量加法实验" in panel() and "草稿实验" not in panel()
    assert f"/admin/gradinglab/problem/?q={problem.slug}" in panel()
    problem.checked_sha256 = problem.content_sha256
    problem.save()
    assert "向量加法实验" not in panel()
    problem.content_sha256 = "f" * 64  # a later sync changed the package
    problem.save()
    assert "向量加法实验" in panel()
