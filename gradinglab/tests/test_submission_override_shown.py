"""A submission whose score a TA changed ("this submission only") says so on its page. The page
showed 答案错误 · 得分 7.50 / 10.00 and nothing else: the student could not tell a staff member had
given the points, nor why; the admin's form said it (已人工改分；自动评分 0.00). The verdict line
now adds the change, the reason and the automatic score, in the page's language."""

from __future__ import annotations

import re
from decimal import Decimal

import pytest
from django.utils import timezone

from gradinglab.services.results import submission_score_override
from gradinglab.tests.labkit import make_assignment, scored_submission

pytestmark = pytest.mark.django_db

SAID = {
    "zh-hans": "得分 7.50 / 10.00（助教改分：部分正确；自动评分 0.00）",
    "en": "Points 7.50 / 10.00 (Changed by staff: 部分正确; automatic score 0.00)",
}


def _verdict(client, sub, lang: str) -> str:
    client.cookies["django_language"] = lang
    page = client.get(f"/lab/submissions/{sub.pk}/").content.decode()
    line = re.search(r'<p class="verdict">(.*?)</p>', page, re.S).group(1)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", line)).strip()


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_the_page_says_the_score_was_changed_and_why(client_a, student_a, ta, lang) -> None:
    sub = scored_submission(make_assignment(), student_a, "0", timezone.now())
    submission_score_override(submission=sub, points=Decimal("7.5"), actor=ta, reason="部分正确")
    assert SAID[lang] in _verdict(client_a, sub, lang)


def test_an_automatic_score_says_nothing_more(client_a, student_a) -> None:
    sub = scored_submission(make_assignment(), student_a, "10", timezone.now())
    verdict = _verdict(client_a, sub, "zh-hans")
    assert verdict.endswith("得分 10.00 / 10.00"), verdict
    assert "改分" not in verdict
