from django.contrib.auth.decorators import login_required
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.views.decorators.cache import never_cache

from accounts.access import staff_check
from pdcsite.status import site_status


@login_required
def home(request: HttpRequest) -> HttpResponse:
    from dashboard.selectors import home_for

    return render(request, "home.html", home_for(request.user))


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
    staff_check(request.user)
    return render(request, "status.html", site_status())


def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page's <link rel=icon> says: send them the SVG."""
    return redirect(static("favicon.svg"), permanent=True)
