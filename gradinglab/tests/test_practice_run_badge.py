"""A run of the public tests says so on its own page, as the problem page's list does with its
公开测试 badge: the page was headed 提交 #5 like any submission, and only 不计入提交次数 (said of
other runs too) hinted that it was no graded submission."""

from __future__ import annotations

import pytest
from django.utils import timezone

from gradinglab.models import Submission
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def _page(client, student, practice: bool, lang: str) -> str:
    sub = Submission.objects.create(
        assignment=make_assignment(), student=student, backend="triton", source="x",
        sha256="x" * 64, status="wrong_answer", practice=practice,
        counts_as_attempt=not practice, created_at=timezone.now(),
    )  # fmt: skip
    client.cookies["django_language"] = lang
    return client.get(f"/lab/submissions/{sub.pk}/").content.decode()


@pytest.mark.parametrize(("lang", "said"), [("zh-hans", "公开测试"), ("en", "Public tests")])
def test_a_public_test_run_is_badged(client_a, student_a, lang, said) -> None:
    assert f'<span class="badge" id="practice-badge">{said}</span>' in _page(
        client_a, student_a, True, lang
    )


def test_a_submission_is_not(client_a, student_a) -> None:
    assert 'id="practice-badge"' not in _page(client_a, student_a, False, "zh-hans")
