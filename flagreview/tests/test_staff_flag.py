"""A TA's flag is said as the TA's, with their reason, and asks the student a neutral question; the
grader's own flags keep their wording. The admin refuses a flag without a reason."""

from __future__ import annotations

import pytest
from django.conf import settings

from flagreview.tests.kit import flagged_doc, gpu_assignment, graded
from gradinglab.models import Submission
from gradinglab.tests import labkit
from gradinglab.tests.labkit import gpu_worker_token  # noqa: F401

pytestmark = pytest.mark.django_db

REASON = "与 student_b 的提交几乎相同"
FAST_PROMPT = "说明你的实现为什么这么快"


@pytest.fixture
def accepted(client, client_a, gpu_worker_token, django_capture_on_commit_callbacks):  # noqa: F811
    """student_a's vector-add submission, accepted at an ordinary speed: no flag, no case."""
    gpu_assignment()
    sub = graded(
        client, client_a, gpu_worker_token, labkit.gpu_doc(), django_capture_on_commit_callbacks
    )
    assert not sub.flagged
    return sub


def _flag_in_admin(client_ta, sub: Submission, reason: str):
    return client_ta.post(
        f"/admin/gradinglab/submission/{sub.pk}/change/",
        {"flagged": "on", "flag_reason": reason, "staff_comment": "", "_save": "1"},
    )


def test_a_ta_flag_is_said_as_the_tas_in_both_languages(accepted, client_ta, client_a) -> None:
    assert _flag_in_admin(client_ta, accepted, REASON).status_code == 302
    accepted.refresh_from_db()
    assert accepted.flagged and accepted.flagged_by == Submission.FlaggedBy.STAFF
    url = f"/flags/submissions/{accepted.pk}/"
    for who in (client_a, client_ta):
        page = who.get(url).content.decode()
        assert f"助教标记了这次提交：{REASON}" in page
        assert "评测系统标记了这次结果" not in page
    student = client_a.get(url).content.decode()
    assert FAST_PROMPT not in student and "针对助教写的原因说明你的情况" in student
    for who in (client_a, client_ta):
        who.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
        page = who.get(url).content.decode()
        assert f"A TA flagged this submission: {REASON}" in page
        assert "The grader flagged" not in page
    english = client_a.get(url).content.decode()
    assert "this fast" not in english and "Explain your side of the reason the TA gave" in english


def test_the_admin_refuses_a_flag_without_a_reason(accepted, client_ta) -> None:
    response = _flag_in_admin(client_ta, accepted, "  ")
    assert response.status_code == 200
    assert "标记提交时必须写明原因（学生会看到）。" in response.content.decode()
    accepted.refresh_from_db()
    assert not accepted.flagged
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = _flag_in_admin(client_ta, accepted, "").content.decode()
    assert "Flagging a submission needs a reason (the student sees it)." in english


def test_the_graders_flag_keeps_its_wording(
    client,
    client_a,
    gpu_worker_token,  # noqa: F811
    django_capture_on_commit_callbacks,
) -> None:
    gpu_assignment()
    sub = graded(
        client, client_a, gpu_worker_token, flagged_doc(), django_capture_on_commit_callbacks
    )
    assert sub.flagged and sub.flagged_by == Submission.FlaggedBy.GRADER
    page = client_a.get(f"/flags/submissions/{sub.pk}/").content.decode()
    assert "比 PyTorch 参考实现快" in page and FAST_PROMPT in page
    assert "助教标记了这次提交" not in page
