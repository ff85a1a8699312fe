"""Chinese is the course's language: the browser's Accept-Language does not switch the site.

English is chosen explicitly with the language switch (Django's language cookie); without that
choice everyone sees LANGUAGE_CODE (zh-hans), whatever their browser or OS is set to.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse


class ExplicitLanguageOnlyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        request.META.pop("HTTP_ACCEPT_LANGUAGE", None)
        return self.get_response(request)
