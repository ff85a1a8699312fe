"""The address of the page being shown, for what comes back to it (the language switch).

A page drawn for a GET lives at its own address. One drawn for a POST (a form sent back with its
errors) does not: that address may answer POST only (`require_POST`: a 405 to the GET that the
language switch's redirect makes), so returning there is a dead end. Its page is the one the form
lives on: the view names it where it knows (`page_url` in the template context, which overrides the
context processor's), else the same-site page the form was sent from (Referer), else home.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme

SAFE_METHODS = ("GET", "HEAD")


def page_url(request: HttpRequest) -> str:
    if request.method in SAFE_METHODS:
        return request.get_full_path()
    return _same_site_referer(request) or "/"


def _same_site_referer(request: HttpRequest) -> str:
    """The Referer's path and query when it is an absolute address on this site, else ""."""
    referer = request.META.get("HTTP_REFERER", "")
    parts = urlsplit(referer)
    # url_has_allowed_host_and_scheme admits any relative text; a browser's Referer is absolute.
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return ""
    if not url_has_allowed_host_and_scheme(
        referer, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    return (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
