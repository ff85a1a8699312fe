"""Bad input gets a clear error, never a server error: every form a student, a TA and an
instructor reach (the site crawl's pages, both roles' own; POST forms and GET filters and searches)
is sent with junk in every field a person types into: markup and quotes, a NUL character (which
PostgreSQL refuses), a 10,000-character string, and numbers no field accepts. No answer may be a
500."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from tests import crawl
from tests.uiworld import build_world

START = ["/", "/lectures/", "/quizzes/", "/lab/", "/grades/", "/accounts/profile/"]
STAFF_START = ["/grades/staff/", "/staff/", "/quizzes/staff/"]
# Forms whose sending ends the session or the crawl's footing, not input checks.
LEAVE = ("/accounts/logout", "/i18n/setlang", "/admin/")
JUNK = [
    "<script>alert(1)</script>' \" \\ %00 ; --",
    "nul\x00byte",
    "长" * 10_000,
    "-1e309",
    "NaN",
    "9" * 40,
]
TYPED = {"text", "number", "email", "url", "search", "password", "datetime-local", "date", "tel"}


class _Forms(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.forms: list[dict] = []
        self._form: dict | None = None
        self._select: str | None = None

    def handle_starttag(self, tag: str, attrs) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "form":
            self._form = {"action": a.get("action", ""), "method": a.get("method", "get").lower(),
                          "fixed": {}, "typed": set(), "files": set()}  # fmt: skip
            self.forms.append(self._form)
        if self._form is None or not a.get("name"):
            return
        kind = a.get("type", "text").lower()
        if tag == "textarea" or (tag == "input" and kind in TYPED):
            self._form["typed"].add(a["name"])
        elif tag == "input" and kind == "file":
            self._form["files"].add(a["name"])
        elif tag == "input" and kind in ("hidden", "checkbox", "radio"):
            self._form["fixed"].setdefault(a["name"], a.get("value", "on"))
        elif tag == "select":
            self._select = a["name"]
            self._form["fixed"].setdefault(a["name"], "")
        if tag == "option" and self._select and not self._form["fixed"].get(self._select):
            self._form["fixed"][self._select] = a.get("value", "")

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        if tag == "select":
            self._select = None


def _a_file() -> SimpleUploadedFile:
    """A small CSV that names a student of the world: a grade import or roster reads a row."""
    return SimpleUploadedFile(
        "junk.csv", b"student_id,points\nstudent_a,1\n", content_type="text/csv"
    )


def _post_forms(client: Client, start: list[str]) -> tuple[int, list[str]]:
    frontier = crawl.Frontier(start)
    sent, failures, done = 0, [], set()
    for path in frontier:
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        html = response.content.decode()
        frontier.add(crawl.page_links(f"http://testserver{path}", crawl.parse(html).links))
        parser = _Forms()
        parser.feed(html)
        for form in parser.forms:
            action = form["action"] or path
            key = (form["method"], crawl.shape(action))
            if action.startswith(LEAVE) or key in done or not (form["typed"] or form["fixed"]):
                continue
            done.add(key)
            sent += len(JUNK) + len(form["fixed"])
            failures += [
                f"{f} {action} (from {path})"
                for f in send_junk(client, form, action, JUNK)
                + send_nul_fixed(client, form, action)
            ]
    return sent, failures


def send_junk(client: Client, form: dict, action: str, junk: list[str]) -> list[str]:
    """Send `form` once per junk value, in every field a person types into; the server errors."""
    send = client.post if form["method"] == "post" else client.get
    failures = []
    for value in junk:
        data = {**form["fixed"], **{name: value for name in form["typed"]}}
        # A file too, so the typed fields are checked with it (a form missing its file stops at
        # that, and a 40-digit maximum next to it went unread).
        data |= {name: _a_file() for name in form["files"]}
        answer = send(action, data)
        if answer.status_code >= 500:
            failures.append(f"{answer.status_code} junk {value[:20]!r}")
    return failures


def send_nul_fixed(client: Client, form: dict, action: str) -> list[str]:
    """Send `form` once per field nobody types into (hidden, select, checkbox) with a NUL in it:
    a view that reads such a field itself, past a form's checks, took a regrade request's
    hidden item key to PostgreSQL, which refuses a NUL (a server error)."""
    send = client.post if form["method"] == "post" else client.get
    failures = []
    for name in form["fixed"]:
        data = {**form["fixed"], name: "nul\x00byte"} | {n: _a_file() for n in form["files"]}
        answer = send(action, data)
        if answer.status_code >= 500:
            failures.append(f"{answer.status_code} NUL in the fixed field {name!r}")
    return failures


@pytest.mark.slow
@pytest.mark.django_db
def test_no_form_answers_junk_with_a_server_error() -> None:
    world = build_world()
    report: list[str] = []
    for user, start in ((world.student, START), (world.instructor, START + STAFF_START)):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        sent, failures = _post_forms(client, start)
        assert sent > 20, f"{user.username}: only {sent} posts"
        report += [f"{user.username}: {f}" for f in failures]
    assert report == []
