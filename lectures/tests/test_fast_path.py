"""The lecture fast path (lectures/fastpath.py): a stored page is served only while Django would
serve the same bytes to the same session, through the real WSGI application.

Runs twice: with the production set-up (Redis cache, cached_db sessions; the test Redis of
`make test`) and with the single-process one (locmem cache, database sessions). "Served by the fast
path" is observed from outside: such a request reads no user or lecture rows.
"""

from __future__ import annotations

import io
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass

import pytest
from django.conf import settings
from django.core.handlers.wsgi import WSGIHandler
from django.core.signals import request_finished, request_started
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext

from lectures.fastpath import FastPathApp
from lectures.models import Lecture, Section, SectionRead

pytestmark = pytest.mark.django_db(transaction=False)


def _redis_cache_url() -> str:
    broker = settings.CELERY_BROKER_URL
    if not broker.startswith("redis://"):
        pytest.fail("the fast-path tests need the test Redis (run them through `make test`)")
    return broker.rsplit("/", 1)[0] + "/5"  # own database index: cache.clear() flushes it


@pytest.fixture(params=["redis", "locmem"])
def app(request, settings) -> Iterator[FastPathApp]:
    if request.param == "redis":
        settings.CACHES = {
            "default": {
                "BACKEND": "pdcsite.cache.RedisCache",
                "LOCATION": _redis_cache_url(),
                "KEY_PREFIX": f"{settings.DATABASES['default']['NAME']}-fast",
            }
        }
        settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
    else:
        settings.SESSION_ENGINE = "django.contrib.sessions.backends.db"
    settings.LECTURE_FAST_PATH = True
    import lectures.fastpath as fastpath

    fastpath._engine = None  # the session engine is read once per process
    fastpath._local.clear()  # pages this process keeps
    from django.core.cache import cache

    cache.clear()
    try:
        yield FastPathApp(WSGIHandler())
    finally:
        cache.clear()
        fastpath._engine = None
        fastpath._local.clear()


@pytest.fixture
def commits(django_capture_on_commit_callbacks):
    """Run on-commit callbacks (the stamp bumps) as a real commit would: tests run in a transaction."""
    return django_capture_on_commit_callbacks


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes
    fast: bool  # answered without reading a user or lecture row


def _call(app, path: str, cookies: dict[str, str], **extra: str) -> Reply:
    environ = {
        "REQUEST_METHOD": extra.pop("method", "GET"),
        "PATH_INFO": path,
        "QUERY_STRING": extra.pop("query", ""),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": extra.pop("host", "testserver"),
        "HTTP_COOKIE": "; ".join(f"{k}={v}" for k, v in cookies.items()),
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(b""),
        "wsgi.errors": sys.stderr,
        **extra,
    }
    seen: dict = {}

    def start_response(status: str, headers: list, exc_info=None) -> None:
        seen["status"], seen["headers"] = int(status.split()[0]), headers

    # As django.test.Client does: a request must not close the test's transaction.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        with CaptureQueriesContext(connection) as queries:
            result = app(environ, start_response)
            body = b"".join(result)
            if hasattr(result, "close"):
                result.close()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)
    touched = " ".join(q["sql"] for q in queries.captured_queries)
    fast = "auth_user" not in touched and "lectures_" not in touched
    headers = {}
    for name, value in seen["headers"]:
        headers[name.lower()] = headers.get(name.lower(), "") + value + "\n"
    return Reply(seen["status"], headers, body, fast)


def _browser(app, client) -> dict[str, str]:
    """The cookies a browser holds after its first visit: session + the CSRF cookie it was given."""
    cookies = {settings.SESSION_COOKIE_NAME: client.cookies[settings.SESSION_COOKIE_NAME].value}
    first = _call(app, "/lectures/3/", cookies)
    assert first.status == 200 and not first.fast
    match = re.search(r"csrftoken=([^;]+)", first.headers["set-cookie"])
    cookies[settings.CSRF_COOKIE_NAME] = match.group(1)
    return cookies


def _warm(app, cookies: dict[str, str], path: str = "/lectures/3/") -> Reply:
    """Second visit renders and stores; third is served by the fast path, byte for byte."""
    stored = _call(app, path, cookies)
    assert stored.status == 200 and not stored.fast
    hit = _call(app, path, cookies)
    assert hit.status == 200 and hit.fast
    assert hit.body == stored.body
    per_request = {"content-length", "x-request-id"}  # the id is each reply's own
    assert {k: v for k, v in hit.headers.items() if k not in per_request} == {
        k: v for k, v in stored.headers.items() if k not in per_request
    }
    assert (
        hit.headers["x-request-id"]
        and hit.headers["x-request-id"] != stored.headers["x-request-id"]
    )
    assert int(hit.headers["content-length"]) == len(hit.body)
    return hit


def _read_state(body: bytes, section: Section) -> str:
    html = body.decode()
    at = html.index(f"/lectures/sections/{section.pk}/read/")
    return re.search(r'aria-pressed="(true|false)"', html[at:]).group(1)


def test_second_visit_is_served_identically_without_touching_the_database(
    imported, app, client_a
) -> None:
    cookies = _browser(app, client_a)
    hit = _warm(app, cookies)
    assert b'id="sec-3-4"' in hit.body
    assert "x-frame-options" in hit.headers
    # The CSRF cookie is renewed as Django renews it, with the same value.
    assert f"csrftoken={cookies['csrftoken']};" in hit.headers["set-cookie"]


def _cache_keys() -> list[str]:
    """Every key in the cache the fast path writes to (locmem's dict or the Redis database)."""
    from django.core.cache import caches
    from django.core.cache.backends.redis import RedisCache

    cache = caches["default"]  # the backend itself: django.core.cache.cache is a proxy
    if isinstance(cache, RedisCache):  # the test Redis's own database index
        return [k.decode() for k in cache._cache.get_client().keys("*")]
    return list(cache._cache)


def test_the_session_key_never_appears_in_a_fast_path_key(imported, app, client_a) -> None:
    """The session key is a credential: the fast path keys stored pages by a digest of it, so
    whoever can list the cache (or this process's pages) cannot lift a session from a key."""
    import lectures.fastpath as fastpath

    cookies = _browser(app, client_a)
    _warm(app, cookies)
    session_key = cookies[settings.SESSION_COOKIE_NAME]
    ours = [k for k in _cache_keys() if "lectures:fast:" in k]
    assert any("lectures:fast:page:" in k for k in ours) and fastpath._local
    assert not [k for k in [*ours, *fastpath._local] if session_key in k]


def test_marking_a_section_read_is_shown_at_once_in_every_session(
    imported, app, student_a, commits
) -> None:
    from django.test import Client

    one, two = Client(), Client()
    one.force_login(student_a)
    two.force_login(student_a)
    a, b = _browser(app, one), _browser(app, two)
    section = Section.objects.get(slug="sec-3-4")
    assert _read_state(_warm(app, a).body, section) == "false"
    _warm(app, b)
    with commits(execute=True):
        response = one.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"})
    assert response.status_code == 302 and SectionRead.objects.filter(section=section).exists()
    for cookies in (a, b):
        after = _call(app, "/lectures/3/", cookies)
        assert not after.fast and _read_state(after.body, section) == "true"


def test_logout_ends_the_stored_page(imported, app, client_a, commits) -> None:
    cookies = _browser(app, client_a)
    _warm(app, cookies)
    with commits(execute=True):
        client_a.post("/accounts/logout/")
    after = _call(app, "/lectures/3/", cookies)
    assert after.status == 302 and "/accounts/login/" in after.headers["location"]


def test_password_change_and_deactivation_end_the_stored_page(
    imported, app, client_a, student_a, commits
) -> None:
    cookies = _browser(app, client_a)
    _warm(app, cookies)
    student_a.set_password("a-new-password-123")
    with commits(execute=True):
        student_a.save()
    assert _call(app, "/lectures/3/", cookies).status == 302

    from django.test import Client

    again = Client()
    again.force_login(student_a)
    cookies = _browser(app, again)
    _warm(app, cookies)
    student_a.is_active = False
    with commits(execute=True):
        student_a.save()
    assert _call(app, "/lectures/3/", cookies).status == 302


def test_content_and_role_changes_are_shown(imported, app, client_a, student_a, commits) -> None:
    cookies = _browser(app, client_a)
    _warm(app, cookies)
    lecture = Lecture.objects.get(number=4)  # a neighbour: lecture 3's page names it
    lecture.title = "新的第四讲标题"
    with commits(execute=True):
        lecture.save()
    after = _call(app, "/lectures/3/", cookies)
    assert not after.fast and "新的第四讲标题" in after.body.decode()
    again = _call(app, "/lectures/3/", cookies)  # that render was stored under the new stamp
    assert again.fast and again.body == after.body
    from django.contrib.auth.models import Group

    with commits(execute=True):
        Group.objects.get_or_create(name="ta")[0].user_set.add(student_a)
    after = _call(app, "/lectures/3/", cookies)
    assert not after.fast and b"/admin/" in after.body


def test_language_host_and_csrf_cookie_are_part_of_the_key(imported, app, client_a) -> None:
    cookies = _browser(app, client_a)
    zh = _warm(app, cookies)
    en = _warm(app, {**cookies, settings.LANGUAGE_COOKIE_NAME: "en"})
    assert zh.body != en.body and b'lang="en"' in en.body and b'lang="zh-CN"' in zh.body
    assert _call(app, "/lectures/3/", cookies).body == zh.body
    other_csrf = {**cookies, settings.CSRF_COOKIE_NAME: "x" * 32}
    assert not _call(app, "/lectures/3/", other_csrf).fast
    bad_host = _call(app, "/lectures/3/", cookies, host="evil.example")
    assert bad_host.status == 400  # Django's host check, not a stored page


def test_a_deploy_that_changes_only_templates_or_static_files_is_not_served_old_pages(
    imported, app, client_a, settings, tmp_path
) -> None:
    """No stamp changes when only code changes: the release digest in the key does the work."""
    import lectures.fastpath as fastpath

    cookies = _browser(app, client_a)
    _warm(app, cookies)
    before = fastpath.release()
    template_dir = tmp_path / "templates"
    template_dir.mkdir()
    (template_dir / "new.html").write_text("a new template", encoding="utf-8")
    settings.TEMPLATES = [{**settings.TEMPLATES[0], "DIRS": [template_dir]}]
    fastpath.release.cache_clear()  # a new process: the next deploy's
    try:
        assert fastpath.release() != before
        fastpath._local.clear()  # the new release's processes start empty
        after = _call(app, "/lectures/3/", cookies)
        assert after.status == 200 and not after.fast  # rendered by the new code, not replayed
        again = _call(app, "/lectures/3/", cookies)
        assert again.fast and again.body == after.body  # stored again under the new release
    finally:
        fastpath.release.cache_clear()


def test_other_requests_go_through_django(imported, app, client_a) -> None:
    cookies = _browser(app, client_a)
    _warm(app, cookies)
    assert not _call(app, "/lectures/3/", cookies, query="x=1").fast
    assert not _call(app, "/lectures/3/", cookies, method="HEAD").fast
    assert not _call(app, "/lectures/4/", cookies).fast  # not stored yet
    anonymous = _call(app, "/lectures/3/", {settings.CSRF_COOKIE_NAME: cookies["csrftoken"]})
    assert anonymous.status == 302


def test_pending_flash_message_is_shown_not_replayed(imported, app, client_a) -> None:
    from django.contrib.messages.storage.base import Message
    from django.contrib.messages.storage.cookie import CookieStorage
    from django.test import RequestFactory

    cookies = _browser(app, client_a)
    hit = _warm(app, cookies)
    # The cookie a redirect after a form post would leave (django.contrib.messages' own encoding).
    pending = CookieStorage(RequestFactory().get("/"))._encode([Message(20, "一条提示")])
    shown = _call(app, "/lectures/3/", {**cookies, "messages": pending})
    assert shown.status == 200 and not shown.fast and "一条提示" in shown.body.decode()
    # Once shown (the browser drops the cookie), the stored page without it is served again.
    again = _call(app, "/lectures/3/", cookies)
    assert again.fast and again.body == hit.body


def test_disabled_fast_path_never_answers(imported, settings, client_a) -> None:
    settings.LECTURE_FAST_PATH = False
    app = FastPathApp(WSGIHandler())
    cookies = _browser(app, client_a)
    replies = [_call(app, "/lectures/3/", cookies) for _ in range(3)]
    assert all(r.status == 200 and not r.fast for r in replies)


def test_a_change_committed_during_the_render_leaves_that_page_unservable(
    imported, app, client_a, commits, monkeypatch
) -> None:
    from lectures import fastpath, selectors

    cookies = _browser(app, client_a)
    real_index = selectors.lecture_index

    def index_then_change(*, user):
        rows = real_index(user=user)  # the page has read the user's marks...
        with commits(execute=True):  # ...when another request commits a change of this user's
            fastpath.bump_user(user.pk)
        return rows

    monkeypatch.setattr(selectors, "lecture_index", index_then_change)
    rendered = _call(app, "/lectures/3/", cookies)
    monkeypatch.undo()
    assert rendered.status == 200 and not rendered.fast
    # Stored under the stamps read before the render: never served, the next visit renders anew.
    assert not _call(app, "/lectures/3/", cookies).fast
    assert _call(app, "/lectures/3/", cookies).fast


def test_a_cache_outage_neither_breaks_pages_nor_writes(
    imported, settings, client_a, student_a, commits
) -> None:
    """Redis down (a port nothing listens on): pages come from Django, a mark is still saved."""
    settings.CACHES = {
        "default": {"BACKEND": "pdcsite.cache.RedisCache", "LOCATION": "redis://127.0.0.1:1/0"}
    }
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # falls back to the DB
    settings.LECTURE_FAST_PATH = True
    app = FastPathApp(WSGIHandler())
    cookies = {
        settings.SESSION_COOKIE_NAME: client_a.cookies[settings.SESSION_COOKIE_NAME].value,
        settings.CSRF_COOKIE_NAME: "c" * 32,
    }
    page = _call(app, "/lectures/3/", cookies)
    assert page.status == 200 and b'id="sec-3-4"' in page.body
    section = Section.objects.get(slug="sec-3-4")
    with commits(execute=True):
        response = client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"})
    assert response.status_code == 302
    assert SectionRead.objects.filter(user=student_a, section=section).exists()
