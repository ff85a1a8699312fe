from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from accounts.roles import is_staff_member
from pdcsite.status import site_status


@login_required
def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Load-balancer / compose health check: the app answers and the database is reachable.

    Says nothing else to anyone (no vendor, versions or hosts); staff see /status/.
    """
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:  # any database failure is "not healthy", with no details
        return JsonResponse({"status": "unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


@login_required
def status(request: HttpRequest) -> HttpResponse:
    if not is_staff_member(request.user):
        raise PermissionDenied
    return render(request, "status.html", site_status())
