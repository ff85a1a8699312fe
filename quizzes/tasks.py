"""Periodic housekeeping: auto-submit attempts whose time ran out while nobody was looking.

Attempts are also auto-submitted lazily whenever their page or an autosave reaches the server
after the deadline; this sweep makes the gradebook right for students who simply left.
"""

from __future__ import annotations

from celery import shared_task

from quizzes.services import attempts_expire_overdue


@shared_task(name="quizzes.expire_overdue_attempts", ignore_result=True)
def expire_overdue_attempts() -> int:
    return attempts_expire_overdue()
