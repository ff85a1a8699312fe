"""A browser's GET of an address that only takes a form's POST gets the site's 405 page.

Django's `require_POST` and class-based views answer such a GET with an empty 405, which Chromium
shows as "HTTP ERROR 405": no layout, no navigation, no way back. People get there by a bookmark,
a shared link or an address typed from a form's action. The page is drawn with the request (the
reader's language, navigation, language switch), as 403 and 404 are, and links one level up when
that address is a page of the site (`/lab/problems/<slug>/submit/` -> the problem page).

Only Django's own empty answer is replaced: the API's 405 is DRF's JSON and stays so.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseNotAllowed
from django.shortcuts import render
from django.urls import Resolver404, get_script_prefix, resolve

from pdcsite.pages import SAFE_METHODS


class MethodNotAllowedPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not _bare_405_to_a_browser(request, response):
            return response
        page = render(request, "405.html", {"up": _up_one_level(request.path_info)}, status=405)
        page["Allow"] = response["Allow"]
        return page


def _bare_405_to_a_browser(request: HttpRequest, response: HttpResponse) -> bool:
    return (
        isinstance(response, HttpResponseNotAllowed)
        and not response.content
        and request.method in SAFE_METHODS
        and request.accepts("text/html")
    )


def _up_one_level(path: str) -> str:
    """The address one level up when the site has a page pattern there (not home: linked anyway)."""
    parent = path.rstrip("/").rpartition("/")[0] + "/"
    if parent == "/":
        return ""
    try:
        resolve(parent)
    except Resolver404:
        return ""
    return get_script_prefix().rstrip("/") + parent
