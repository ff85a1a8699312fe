"""Buttons that say the same words on one page are told apart for screen readers.

A page that repeats a button per row or per section (读完了 under every lecture section, 标记待查
on every quiz question, Save / Remove per picked question, 撤销 in two staff forms) read to a
screen reader's list of buttons as the same words over and over. Each such button now names what
it acts on with aria-describedby (an element on the page) or its own aria-label. The pages are
the site crawl's, as a student and as an instructor (the quiz attempt among them).
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


class _Buttons(HTMLParser):
    """Each button's words, aria-label and aria-describedby; and every id on the page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.buttons: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self._open: list | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        a = {k: v or "" for k, v in attrs}
        if a.get("id"):
            self.ids.add(a["id"])
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


def _alike(html: str) -> list[str]:
    page = _Buttons()
    page.feed(html)
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


@pytest.mark.slow
@pytest.mark.django_db
def test_no_page_repeats_a_button_a_screen_reader_cannot_tell_apart() -> None:
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
            frontier.add(crawl.page_links(f"http://testserver{path}", crawl.parse(html)))
            if not path.startswith("/admin/"):  # Django's own admin pages
                pages += 1
                report += [f"{user.username} {path}: {f}" for f in _alike(html)]
    assert pages > 30, pages
    assert report == []
