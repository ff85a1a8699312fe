"""Chinese is the course's language: the browser's Accept-Language does not switch the site.

English is chosen explicitly with the language switch (Django's language cookie); without that
choice everyone sees LANGUAGE_CODE (zh-hans), whatever their browser or OS is set to.

The API (/api/) is the exception: its clients (the CLI, scripts) have no language switch and no
cookie, so there Accept-Language is the explicit choice; without it the API answers in Chinese too.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

API_PREFIX = "/api/"


class ExplicitLanguageOnlyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith(API_PREFIX):
            request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
