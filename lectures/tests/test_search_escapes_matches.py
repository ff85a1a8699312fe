"""The search page marks the matched words of the reader's query in the section's text, and the
marked words are escaped like the rest (search.highlight): the query is in the page's URL, so a
link to a search that matches markup written in a lecture (a lecture on HTML, a code sample)
would otherwise put that markup, unescaped, into the page of whoever follows the link. The old
test searched for "<script>" in a course that has none, so it reached only the unmarked text.
"""

from __future__ import annotations

import pytest

from lectures.models import Lecture, Section

MARKUP = "<img/src=x/onerror=alert(1)>"


@pytest.mark.django_db
def test_a_matched_word_that_is_markup_is_shown_as_text(client_a) -> None:
    lecture = Lecture.objects.create(number=90, title="网页", module="附录", overview_md="")
    Section.objects.create(
        lecture=lecture,
        number="90.1",
        slug="sec-90-1",
        title="一个 HTML 例子",
        search_title="一个 html 例子",
        search_body=f"页面里写成 {MARKUP} 的标签会执行脚本。",
    )
    page = client_a.get("/lectures/search/", {"q": MARKUP}).content.decode()
    assert "90.1" in page  # the section is found and its snippet shown
    assert MARKUP not in page
    assert "<mark>&lt;img/src=x/onerror=alert(1)&gt;</mark>" in page
