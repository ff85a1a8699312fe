"""The staff page of a person marks a run of the public tests among their lab submissions: it was
listed as 提交 #5 · 求和归约 · 答案错误 · — / 10.00, like a graded submission that failed, though it
used no attempt and could get no score."""

from __future__ import annotations

import re

import pytest
from django.utils import timezone

from gradinglab.models import Submission
from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def person_submissions(client, student, lang: str) -> dict[str, str]:
    """The person page's submission list in ``lang``: each line's link to its submission, and
    its text without tags or runs of space."""
    client.cookies["django_language"] = lang
    page = client.get(f"/staff/people/{student.pk}/").content.decode()
    items = re.search(r'<ul id="person-submissions">(.*?)</ul>', page, re.S).group(1)
    lines = {}
    for li in re.findall(r"<li>(.*?)</li>", items, re.S):
        link = re.search(r'href="([^"]*)"', li)
        lines[link[1] if link else li] = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", li)).strip()
    return lines


@pytest.mark.parametrize(
    ("lang", "run", "graded"),
    [("zh-hans", "向量加法 · 公开测试 · 答案错误", "向量加法 · 答案错误"),
     ("en", "Vector addition · Public tests · Wrong answer", "Vector addition · Wrong answer")],
)  # fmt: skip
def test_a_public_test_run_is_marked(client_ta, student_a, lang, run, graded) -> None:
    assignment = make_assignment()
    for practice in (True, False):
        Submission.objects.create(
            assignment=assignment, student=student_a, backend="triton", source=str(practice),
            sha256=str(practice).ljust(64, "0"), status="wrong_answer", practice=practice,
            counts_as_attempt=not practice, created_at=timezone.now(),
        )  # fmt: skip
    lines = list(person_submissions(client_ta, student_a, lang).values())
    assert sum(run in line for line in lines) == 1, lines
    assert sum(graded in line for line in lines) == 1, lines
