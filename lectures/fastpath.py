"""Signed-in lecture pages served from the shared cache, outside the Django request cycle.

A lecture page is the same bytes for one browser session until something it shows changes: the
content (any lecture: the page names its neighbours), the user (marks, name, role, password,
active flag), the language, the CSRF secret its forms carry. The first GET goes through Django as
usual; ``FastPathStoreMiddleware`` (outside every middleware that shapes the page) keeps the
final response, headers included, under a key made of the session key, lecture number, language
cookie, host and scheme. Later GETs of that page are answered by ``FastPathApp`` (wrapping the
WSGI application) after the same checks Django would make, each against live state:

- the session still exists and is unexpired (through the configured session engine), belongs to
  the same user with the same password hash, and holds no pending flash messages;
- the request carries the same CSRF cookie, and no messages cookie;
- the content stamp and the user's stamp are the ones read *before* the page was rendered (a change
  committed while rendering therefore never produces a servable entry).

Stamps are random tokens in the shared cache, replaced after commit by every write that changes
what a page shows; a missing stamp (evicted) never matches. Anything unusual (another method, a
query string, a cache error) falls through to Django. Enabled by ``settings.LECTURE_FAST_PATH``,
which requires a cache shared by all web processes (Redis).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import re
import sysconfig
import time
import uuid
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterable
from importlib import import_module
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY
from django.core.cache import cache
from django.db import transaction
from django.http import HttpRequest, HttpResponse, parse_cookie

from pdcsite.logs import request_id_for

log = logging.getLogger(__name__)

ENTRY_SECONDS = 600  # an entry lives 10 min at most; stamps make it stale earlier when needed
PATH = re.compile(r"^/lectures/(\d{1,4})/$")
CONTENT_STAMP = "lectures:fast:stamp:content"
MESSAGES_SESSION_KEY = "_messages"  # django.contrib.messages' session storage key
MESSAGES_COOKIE = "messages"  # django.contrib.messages' cookie storage name
SKIPPED_HEADERS = {"content-length", "set-cookie"}


def _user_stamp_key(user_id: int | str) -> str:
    return f"lectures:fast:stamp:user:{user_id}"


def _entry_key(session_key: str, number: int, language: str, host: str, secure: bool) -> str:
    # The session key is a credential: only its digest goes into cache keys.
    raw = f"{session_key}\n{number}\n{language}\n{host}\n{int(secure)}\n{release()}"
    return "lectures:fast:page:" + hashlib.sha256(raw.encode()).hexdigest()


@functools.cache
def release() -> str:
    """Digest of what renders a page besides the data: the project's templates, static files and
    translations.

    Part of every entry key, so a deploy that changes only a template, a stylesheet or a
    translation never serves a page stored by the old code (no stamp changes then). Read once per
    process (~0.02 s)."""
    from django.apps import apps

    roots = [Path(d) for t in settings.TEMPLATES for d in t.get("DIRS", [])]
    roots += [Path(d) for d in (*settings.STATICFILES_DIRS, *settings.LOCALE_PATHS)]
    base = Path(settings.BASE_DIR).resolve()
    packages = Path(sysconfig.get_paths()["purelib"]).resolve()  # a venv may sit inside BASE_DIR
    for app in apps.get_app_configs():  # the project's own apps; packages change with requirements
        path = Path(app.path).resolve()
        if path.is_relative_to(base) and not path.is_relative_to(packages):
            roots += [Path(app.path) / sub for sub in ("templates", "static", "locale")]
    digest = hashlib.sha256()
    for root in sorted({r.resolve() for r in roots if r.is_dir()}):
        for path in sorted(p for p in root.rglob("*") if p.is_file()):
            digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def _stamp_keys(user_id: int | str) -> list[str]:
    return [CONTENT_STAMP, _user_stamp_key(user_id)]


def _bump(key: str) -> None:
    def write() -> None:
        try:
            cache.set(key, uuid.uuid4().hex, None)
        except Exception:  # the write has committed; a cache outage must not turn it into a 500
            # Stored pages then live out their ENTRY_SECONDS at most (lookups fail over to Django
            # while the cache is down).
            log.exception("lecture fast path: could not replace stamp %s", key)

    transaction.on_commit(write)  # after commit: no render can read old rows under a new stamp


def bump_content() -> None:
    """Something every lecture page shows changed (a lecture, a section, a title)."""
    if settings.LECTURE_FAST_PATH:
        _bump(CONTENT_STAMP)


def bump_user(user_id: int) -> None:
    """Something about this user that a lecture page shows changed (marks, name, role, login)."""
    if settings.LECTURE_FAST_PATH:
        _bump(_user_stamp_key(user_id))


def _current_stamps(user_id: int | str) -> tuple[str, str] | None:
    """Both stamps, creating missing ones; None when the cache cannot be read."""
    keys = _stamp_keys(user_id)
    found = cache.get_many(keys)
    for key in keys:
        if key not in found:
            # add(): two processes creating the same stamp agree on one value.
            cache.add(key, uuid.uuid4().hex, None)
            found[key] = cache.get(key)
    if any(found[k] is None for k in keys):
        return None
    return found[keys[0]], found[keys[1]]


def _secure(environ: dict[str, Any]) -> bool:
    """HttpRequest.is_secure() on a raw WSGI environ (same proxy-header rule)."""
    header = settings.SECURE_PROXY_SSL_HEADER
    if header:
        name, value = header
        if name in environ:
            return environ[name].split(",", 1)[0].strip() == value
    return environ.get("wsgi.url_scheme") == "https"


# -- storing (inside Django) ----------------------------------------------------------------------
def ticket(request: HttpRequest, number: int) -> dict[str, Any] | None:
    """Called by the lecture view: what an entry for this page must match, or None.

    The stamps were read by the middleware when the request came in, before the user row or any
    lecture row was read, so a change committed during this request leaves the entry unservable.
    """
    early = getattr(request, "_lecture_fast_stamps", None)
    if early is None or request.GET:
        return None
    user_id, stamps = early
    if user_id != str(request.user.pk):
        return None
    return {"number": number, "uid": user_id, "stamps": stamps}


class FastPathStoreMiddleware:
    """Keeps the final response of a lecture page the view marked (it sits outside every
    middleware that shapes that response: pdcsite.settings.MIDDLEWARE)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        found = getattr(response, "lecture_fast_ticket", None)
        if found is not None and response.status_code == 200:
            try:
                _store(request, response, found)
            except Exception:  # the page was served; only the shortcut is lost
                log.exception("lecture fast path: could not store the page")
        return response

    def process_view(self, request: HttpRequest, view: Any, args: Any, kwargs: Any) -> None:
        """Just before the view: the session exists (SessionMiddleware ran), the user row is not
        read yet (request.user is lazy until the view's login check)."""
        if settings.LECTURE_FAST_PATH and request.method == "GET" and PATH.match(request.path_info):
            self._read_stamps(request)

    @staticmethod
    def _read_stamps(request: HttpRequest) -> None:
        try:
            # The session (not the user row) names the user: nothing of the page is read yet.
            user_id = request.session.get(SESSION_KEY)
            stamps = _current_stamps(user_id) if user_id else None
        except Exception:
            log.exception("lecture fast path: could not read the stamps")
            return
        if stamps is not None:
            request._lecture_fast_stamps = (user_id, stamps)


def _store(request: HttpRequest, response: HttpResponse, found: dict[str, Any]) -> None:
    cookies = request.COOKIES
    session_key = cookies.get(settings.SESSION_COOKIE_NAME)
    csrf = cookies.get(settings.CSRF_COOKIE_NAME)
    session = request.session
    # Django re-sends the CSRF cookie with every page that uses the token (to renew its expiry);
    # that one cookie is kept with the page. Any other cookie means this response is not a replay.
    renewed = response.cookies.get(settings.CSRF_COOKIE_NAME)
    if (
        not session_key
        or not csrf
        or set(response.cookies) - {settings.CSRF_COOKIE_NAME}
        or (renewed is not None and renewed.value != csrf)
        or session.session_key != session_key
        or session.get(SESSION_KEY) != found["uid"]
        or MESSAGES_SESSION_KEY in session
        or settings.SESSION_SAVE_EVERY_REQUEST
    ):
        return
    headers = [(k, v) for k, v in response.items() if k.lower() not in SKIPPED_HEADERS]
    if renewed is not None:
        headers.append(("Set-Cookie", renewed.output(header="")))  # as WSGIHandler writes it
    entry = {
        "uid": found["uid"],
        "hash": session.get(HASH_SESSION_KEY),
        "csrf": csrf,
        "stamps": found["stamps"],
        "headers": headers,
        "expires": time.time() + ENTRY_SECONDS,
        "body": response.content,
    }
    key = _entry_key(
        session_key,
        found["number"],
        cookies.get(settings.LANGUAGE_COOKIE_NAME, ""),
        request.META.get("HTTP_HOST", ""),
        request.is_secure(),
    )
    _remember(key, entry)
    # ~6× smaller in the shared cache; inflated once per process that reads it.
    cache.set(key, {**entry, "body": zlib.compress(entry["body"], 1)}, ENTRY_SECONDS)


# -- serving (before Django) ------------------------------------------------------------------------
# Each web process keeps the pages it has seen (inflated) so a hit costs one cache round trip:
# the session and both stamps in a single MGET. Bounded: 256 pages of ~50 KB is ~13 MB a process.
LOCAL_ENTRIES = 256
_local: OrderedDict[str, dict[str, Any]] = OrderedDict()


def _remember(key: str, entry: dict[str, Any]) -> None:
    _local[key] = entry
    _local.move_to_end(key)
    while len(_local) > LOCAL_ENTRIES:
        _local.popitem(last=False)


def _session_and_stamps(session_key: str, user_id: str) -> tuple[dict[str, Any], tuple]:
    """The live session data and the user's current stamps, in one cache round trip when the
    sessions live in the same cache (cached_db / cache engines), else through the engine."""
    store = _session_engine().SessionStore(session_key)
    stamp_keys = _stamp_keys(user_id)
    if settings.SESSION_CACHE_ALIAS == "default" and hasattr(store, "cache_key_prefix"):
        session_cache_key = store.cache_key_prefix + session_key
        found = cache.get_many([session_cache_key, *stamp_keys])
        session = found.get(session_cache_key)
        if session is None:  # not cached (evicted, or never read since login): the engine's way
            session = store.load()
    else:
        session = store.load()
        found = cache.get_many(stamp_keys)
    return session, tuple(found.get(k) for k in stamp_keys)


def _valid(entry: dict[str, Any], csrf: str, session: dict[str, Any], stamps: tuple) -> bool:
    return (
        entry["expires"] > time.time()
        and entry["csrf"] == csrf
        and session.get(SESSION_KEY) == entry["uid"]
        and session.get(HASH_SESSION_KEY) == entry["hash"]
        and MESSAGES_SESSION_KEY not in session
        and stamps == tuple(entry["stamps"])
    )


def lookup(environ: dict[str, Any]) -> tuple[list[tuple[str, str]], bytes] | None:
    """The stored page for this request when every check passes, else None."""
    match = PATH.match(environ.get("PATH_INFO", ""))
    if not match or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
        return None
    cookies = parse_cookie(environ.get("HTTP_COOKIE", ""))
    session_key = cookies.get(settings.SESSION_COOKIE_NAME)
    csrf = cookies.get(settings.CSRF_COOKIE_NAME)
    if not session_key or not csrf or MESSAGES_COOKIE in cookies:
        return None
    secure = _secure(environ)
    if settings.SECURE_SSL_REDIRECT and not secure:
        return None  # Django answers with the redirect
    key = _entry_key(
        session_key,
        int(match[1]),
        cookies.get(settings.LANGUAGE_COOKIE_NAME, ""),
        environ.get("HTTP_HOST", ""),
        secure,
    )
    entry = _local.get(key)
    if entry is None:
        entry = _shared_entry(key)
        if entry is None:
            return None
    session, stamps = _session_and_stamps(session_key, entry["uid"])
    if not _valid(entry, csrf, session, stamps):
        # Another process may have stored a newer page since this one was kept here.
        entry = _shared_entry(key) if key in _local else None
        if entry is None or not _valid(entry, csrf, session, stamps):
            return None
    return entry["headers"], entry["body"]


def _shared_entry(key: str) -> dict[str, Any] | None:
    stored = cache.get(key)
    if stored is None:
        return None
    entry = {**stored, "body": zlib.decompress(stored["body"])}
    _remember(key, entry)
    return entry


_engine = None


def _session_engine():
    global _engine
    if _engine is None:
        _engine = import_module(settings.SESSION_ENGINE)
    return _engine


class FastPathApp:
    """WSGI wrapper: answers stored lecture pages, hands everything else to Django."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app
        self.enabled = settings.LECTURE_FAST_PATH

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]):
        if self.enabled:
            try:
                hit = lookup(environ)
            except Exception:  # any doubt (cache down, odd entry): Django answers
                log.exception("lecture fast path: lookup failed")
                hit = None
            if hit is not None:
                headers, body = hit
                # Every reply carries its own id, as RequestIdMiddleware gives Django's replies.
                request_id = ("X-Request-ID", request_id_for(environ))
                start_response("200 OK", [*headers, request_id, ("Content-Length", str(len(body)))])
                return [body]
        return self.app(environ, start_response)
