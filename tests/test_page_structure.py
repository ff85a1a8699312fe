"""What a screen reader's lists of a page show, on every page of the site crawl (as a student and
as an instructor, the quiz attempt among them):

- buttons: ones that say the same words are told apart. A page that repeats a button per row or
  section (读完了 under every lecture section, 标记待查 on every quiz question, Save / Remove per
  picked question, 撤销 in two staff forms) read as the same words over and over; each such button
  names what it acts on with aria-describedby (an element on the page) or its own aria-label;
- headings: one h1, and no level skipped (quiz questions and a submission's timing, compile log
  and ptxas were h3 straight under the h1, so a heading list showed them under nothing).
"""

from __future__ import annotations

from collections import defaultdict
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests import crawl
from tests.uiworld import build_world

START = ["/", "/lectures/", "/quizzes/", "/lab/", "/grades/", "/accounts/profile/"]
STAFF_START = ["/grades/staff/", "/staff/", "/quizzes/staff/"]


class _Page(HTMLParser):
    """Each button's words, aria-label and aria-describedby; every id; the heading levels."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.buttons: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self.headings: list[int] = []
        self._open: list | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("id"):
            self.ids.add(a["id"])
        if len(tag) == 2 and tag[0] == "h" and tag[1] in "123456":
            self.headings.append(int(tag[1]))
        marks = (a.get("aria-label", ""), a.get("aria-describedby", ""))
        if tag == "input" and a.get("type") == "submit":
            self.buttons.append((a.get("value", ""), *marks))
        elif tag == "button":
            self._open = ["", *marks]

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open[0] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._open is not None:
            words, label, described = self._open
            self.buttons.append((" ".join(words.split()), label, described))
            self._open = None


def _alike(page: _Page) -> list[str]:
    by_words: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for words, label, described in page.buttons:
        by_words[words].append((label, described))
    found = []
    for words, marks in by_words.items():
        if len(marks) > 1 and (len(set(marks)) < len(marks) or ("", "") in marks):
            found.append(f"{words!r} x{len(marks)}")
        absent = {i for _, described in marks for i in described.split()} - page.ids
        found += [f"{words!r} described by absent id {i}" for i in sorted(absent)]
    return found


def _heading_gaps(page: _Page) -> list[str]:
    found = [] if page.headings.count(1) == 1 else [f"{page.headings.count(1)} h1"]
    for before, level in zip([0, *page.headings], page.headings, strict=False):
        if level > before + 1:
            found.append(f"h{level} after h{before or '-'}")
    return found[:3]


@pytest.mark.slow
@pytest.mark.django_db
def test_buttons_are_told_apart_and_headings_skip_no_level() -> None:
    world = build_world()
    report: list[str] = []
    pages = 0
    for user, start in ((world.student, START), (world.instructor, START + STAFF_START)):
        client = Client()
        client.force_login(user)
        frontier = crawl.Frontier(start)
        for path in frontier:
            response = client.get(path)
            if response.status_code != 200 or "text/html" not in response["Content-Type"]:
                continue
            html = response.content.decode()
            frontier.add(crawl.page_links(f"http://testserver{path}", crawl.parse(html).links))
            if not path.startswith("/admin/"):  # Django's own admin pages
                pages += 1
                page = _Page()
                page.feed(html)
                found = _alike(page) + _heading_gaps(page)
                report += [f"{user.username} {path}: {f}" for f in found]
    assert pages > 30, pages
    assert report == []
