"""The similarity pages speak one language at a time (the crawler's rules, tests/crawl.py):
no Chinese UI on an English page, no English UI on a Chinese one, statuses by their labels."""

from __future__ import annotations

import pytest

from similarity.tests.test_access import pair_world  # noqa: F401  (fixture)
from tests import crawl

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_pages_speak_one_language(pair_world, client_ta, lang) -> None:  # noqa: F811
    assignment, _users, _a, _b, pair = pair_world
    client_ta.cookies["django_language"] = lang
    client_ta.post(f"/staff/similarity/pairs/{pair.pk}/", {"decision": "no_issue", "note": ""})
    words = {"stu_orig", "stu_copy", "softmax", "orig", "copy", "stu"}
    for url in ("/staff/similarity/", f"/staff/similarity/assignments/{assignment.pk}/",
                f"/staff/similarity/pairs/{pair.pk}/"):  # fmt: skip
        response = client_ta.get(url)
        assert response.status_code == 200
        html = response.content.decode()
        assert crawl.problems(crawl.parse(html), data_words=words) == [], (lang, url)
        if lang == "en":
            assert "Similarity" in html
    decision = pair.decisions.get()
    admin = ["/admin/similarity/", "/admin/similarity/similarityrun/",
             f"/admin/similarity/similarityrun/{pair.run_id}/change/",
             "/admin/similarity/similaritypair/", f"/admin/similarity/similaritypair/{pair.pk}/change/",
             "/admin/similarity/similaritydecision/",
             f"/admin/similarity/similaritydecision/{decision.pk}/change/",
             "/admin/similarity/archivedfingerprint/"]  # fmt: skip
    for url in admin:
        response = client_ta.get(url)
        assert response.status_code == 200, url
        parsed = crawl.parse(response.content.decode())
        assert crawl.problems(parsed, data_words=words) == [], (lang, url)
