"""The site's one source of "now" for decisions that tests move in time (a quiz's close, when
students see an item's scores). Tests patch ``pdcsite.clock.now``; ``quizzes.clock`` reads it.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
