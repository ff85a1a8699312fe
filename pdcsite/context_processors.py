from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext, gettext_noop

from accounts.access import is_staff_member
from pdcsite.pages import page_url

# The default course name, so that makemessages records it and English pages show its msgstr.
gettext_noop("并行与分布式计算（AI 方向）")


def site(request: HttpRequest) -> dict:
    user = getattr(request, "user", None)
    return {
        "COURSE_NAME": gettext(settings.PDC_COURSE_NAME),
        "is_course_staff": bool(user and user.is_authenticated and is_staff_member(user)),
        # Where the language switch returns; a view answering a POST may name its page instead.
        "page_url": page_url(request),
    }
