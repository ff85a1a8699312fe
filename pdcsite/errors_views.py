"""The server-error handler (handler500): a database outage is a friendly 503, never a trace.

Django calls handler500 while the exception is being handled, so `sys.exc_info()` names it. When
that is the database failing (connection refused, server gone, too many clients), the page says
the site is briefly unavailable, with Retry-After; the page itself touches no database (no
session, no user), because there is none. API clients get the same as JSON.
"""

from __future__ import annotations

import logging
import sys

from django.db import InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.defaults import server_error as django_server_error

log = logging.getLogger("pdcsite")

RETRY_AFTER_S = 30  # seconds: a database restart or fail-over, not a long outage


def database_is_down() -> bool:
    exc = sys.exc_info()[1]
    return isinstance(exc, OperationalError | InterfaceError)


def server_error(request: HttpRequest) -> HttpResponse:
    if not database_is_down():
        return django_server_error(request)
    log.error("database unavailable: %s %s answered 503", request.method, request.path)
    if request.path.startswith("/api/"):
        response: HttpResponse = JsonResponse(
            {"detail": _("数据库暂时不可用，请稍后重试。")}, status=503
        )
    else:
        response = HttpResponse(render_to_string("503.html"), status=503)
    response["Retry-After"] = str(RETRY_AFTER_S)
    response["Cache-Control"] = "no-store"
    return response
