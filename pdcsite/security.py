"""Request-level defences: body size before parsing, no caching of private pages, token guessing.

- ``BodyLimitMiddleware`` refuses a body larger than ``PDC_MAX_REQUEST_BYTES`` from its
  Content-Length alone, before CSRF, forms, uploads or DRF read a byte of it (Django's own
  DATA_UPLOAD_MAX_MEMORY_SIZE leaves file parts and DRF's JSON parser unbounded). A chunked body
  has no length to check, and Django would read it as empty: it is refused with 411.
- ``QueryNulMiddleware`` refuses a query string holding a NUL character with 400: PostgreSQL cannot
  store or compare one, so every view that filters by a query parameter (search, the grid's
  section, the bank's quiz) answered 500. Form bodies need no such check: Django's and DRF's
  CharFields refuse NUL with a field error, keeping what was typed.
- ``PrivateNoStoreMiddleware`` marks every response to a signed-in user (or to an API credential)
  ``Cache-Control: no-store``, so a shared or browser cache never keeps someone's grades.
- ``token_failed`` counts wrong API tokens per client address and answers them 429 once there are
  too many, as django-axes does for passwords; a valid token always gets in.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Callable

from axes.backends import AxesBackend
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.cache import add_never_cache_headers
from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import exceptions

from pdcsite.params import query_id
from pdcsite.throttle import throttle_hit


class LoginLockoutBackend(AxesBackend):
    """django-axes for every login that comes with a request (site, admin: the only ways in).

    ``authenticate()`` without a request is code, not a visitor (the test client's ``login()``, a
    shell); axes would refuse it outright, so it is left to the next backend (ModelBackend, which
    checks the password). AxesBackend, not the standalone one: it also answers ``get_user`` and
    permissions, so a session naming this backend (benchmarks write AUTHENTICATION_BACKENDS[0])
    still works.
    """

    def authenticate(self, request, username=None, password=None, **kwargs):  # type: ignore[override]
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)


def _language(request: HttpRequest) -> str:
    """The visitor's explicit language choice; this runs before LocaleMiddleware."""
    chosen = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return chosen if chosen in dict(settings.LANGUAGES) else settings.LANGUAGE_CODE


def _refuse(request: HttpRequest, status: int, message: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse({"detail": message}, status=status)
    else:
        html = render_to_string("request_refused.html", {"message": message, "status": status})
        response = HttpResponse(html, status=status)
    return response


class BodyLimitMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.PDC_MAX_REQUEST_BYTES
        with translation.override(_language(request)):
            if "chunked" in request.META.get("HTTP_TRANSFER_ENCODING", "").lower():
                return _refuse(request, 411, _("请求须带 Content-Length（不接受分块上传）。"))
            raw = request.META.get("CONTENT_LENGTH") or "0"
            if not (raw.isascii() and raw.isdigit()):  # "²" is a digit to isdigit(), not int()
                return _refuse(request, 400, _("Content-Length 无效。"))
            if int(raw) > limit:
                message = _("请求过大：上限 %(kib)d KiB。") % {"kib": limit // 1024}
                return _refuse(request, 413, message)
        return self.get_response(request)


class QueryNulMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if any("\x00" in key or "\x00" in "".join(values) for key, values in request.GET.lists()):
            with translation.override(_language(request)):
                return _refuse(request, 400, _("网址中的参数含有空字符（NUL），无法处理。"))
        return self.get_response(request)


ADMIN_PREFIX = "/admin/"
_DATE_PARTS = {"year": (1, 9999), "month": (1, 12), "day": (1, 31)}  # a date_hierarchy's bounds
# Lookups that read an axes log's `ip_address` filter as an address (the others compare text).
_ADDRESS_LOOKUPS = {"", "exact", "in", "gt", "gte", "lt", "lte", "range"}


def admin_input_problem(request: HttpRequest) -> Promise | None:
    """What the admin itself would turn into a server error, not a refusal (a fuzz found each):
    an action's ticked id that is not a number ("abc": ValueError) or past a 64-bit key
    (SQLite: OverflowError), the same in a changelist's id filter (`?pk__in=`), and a
    date_hierarchy year past what a date holds (OverflowError), and an axes log's `ip_address`
    filter that is no address (ValueError, raised when the query runs, past the admin's check)."""
    forms = ("application/x-www-form-urlencoded", "multipart/form-data")
    if request.method == "POST" and request.content_type in forms:
        if any(query_id(raw) is None for raw in request.POST.getlist("_selected_action")):
            return gettext_lazy("所选对象的编号无效。")
    for key, values in request.GET.lists():
        parts = key.split("__")
        if parts[-1] in ("in", "exact") and len(parts) > 1:
            parts = parts[:-1]
        if parts[-1] in ("pk", "id"):
            if any(query_id(v) is None for raw in values for v in raw.split(",")):
                return gettext_lazy("筛选条件中的编号无效。")
        elif parts[-1] in _DATE_PARTS:
            low, high = _DATE_PARTS[parts[-1]]
            if not all(v.isascii() and v.isdigit() and low <= int(v) <= high for v in values):
                return gettext_lazy("筛选条件中的日期无效。")
        if _not_an_address_filter(key, values):
            return gettext_lazy("筛选条件中的 IP 地址无效。")
    return None


def _not_an_address_filter(key: str, values: list[str]) -> bool:
    field, _sep, lookup = key.partition("__")
    if field != "ip_address" or lookup not in _ADDRESS_LOOKUPS:
        return False
    return not all(_is_ip(v) for raw in values for v in raw.split(","))


class AdminInputMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(ADMIN_PREFIX) and (why := admin_input_problem(request)):
            with translation.override(_language(request)):
                return _refuse(request, 400, str(why))
        return self.get_response(request)


class PrivateNoStoreMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)  # absent when WhiteNoise answered (static files)
        private = bool(user is not None and user.is_authenticated)
        if private or "HTTP_AUTHORIZATION" in request.META:
            add_never_cache_headers(response)
        return response


def client_ip(request: HttpRequest) -> str | None:
    """The client's address, trusting exactly PDC_TRUSTED_PROXY_COUNT proxies in front of us."""
    hops = settings.PDC_TRUSTED_PROXY_COUNT
    forwarded = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
    if hops and len(forwarded) >= hops and _is_ip(forwarded[-hops]):
        return forwarded[-hops]
    remote = request.META.get("REMOTE_ADDR", "")
    return remote if _is_ip(remote) else None


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def token_failed(request: HttpRequest) -> None:
    """Count one wrong token from this client address; past PDC_TOKEN_FAILURE_LIMIT in a window of
    PDC_TOKEN_LOCKOUT_S, raise 429 instead of letting the caller answer 401.

    Only wrong tokens are counted and refused: a valid one is never looked at here, so a guesser
    sharing an address (a classroom NAT, the GPU hosts' gateway) cannot lock out real workers and
    students.
    """
    key = f"token-failures:{client_ip(request) or 'unknown'}"
    if throttle_hit(key, window_s=settings.PDC_TOKEN_LOCKOUT_S) > settings.PDC_TOKEN_FAILURE_LIMIT:
        raise exceptions.Throttled(
            wait=settings.PDC_TOKEN_LOCKOUT_S,
            detail=_("错误的令牌尝试过多，请稍后再试。"),
        )
