"""The leaderboard leads back to its problem, as a submission's page does (← 向量加法): it was a
dead end, the way back only the browser's or the 实验 menu's."""

from __future__ import annotations

import pytest

from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lang", "title"), [("zh-hans", "向量加法"), ("en", "Vector addition")])
def test_the_leaderboard_links_back_to_its_problem(client_a, lang: str, title: str) -> None:
    make_assignment()
    client_a.cookies["django_language"] = lang
    page = client_a.get("/lab/problems/vector-add/leaderboard/").content.decode()
    assert f'<a href="/lab/problems/vector-add/" id="leaderboard-back">← {title}</a>' in page
