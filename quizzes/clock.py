"""The quiz engine's one source of "now". Tests patch ``quizzes.clock.now`` to move time.

Every deadline decision (time limit, close, late window) reads the server's clock through here, never
the browser's.
"""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone


def now() -> datetime:
    return timezone.now()
