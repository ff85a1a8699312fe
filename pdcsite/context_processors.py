from django.conf import settings
from django.http import HttpRequest

from accounts.roles import is_staff_member


def site(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    return {
        "COURSE_NAME": settings.PDC_COURSE_NAME,
        "is_course_staff": bool(user and user.is_authenticated and is_staff_member(user)),
    }
