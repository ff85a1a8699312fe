"""The quiz engine's one source of "now". Tests patch ``quizzes.clock.now`` to move the quiz
engine's time, or ``pdcsite.clock.now`` (which this reads) to move the gradebook's as well.

Every deadline decision (time limit, close, late window) reads the server's clock through here, never
the browser's.
"""

from __future__ import annotations

from datetime import datetime

from pdcsite import clock


def now() -> datetime:
    return clock.now()
