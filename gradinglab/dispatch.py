"""The one place the web side puts a grading job on the broker."""

from __future__ import annotations

from typing import Any

from gradinglab.jobs import GRADE_TASK


def send_job(queue: str, payload: dict[str, Any]) -> None:
    from pdcsite.celery import app

    app.send_task(GRADE_TASK, kwargs={"payload": payload}, queue=queue)


def send_reap() -> None:
    from pdcsite.celery import app

    app.send_task("gradinglab.reap_stuck", queue="default")


CHECK_TASK = "gradinglab.check_problem"


def send_problem_check(slug: str) -> None:
    """The publishing check runs real grading jobs for minutes: a task, never the request."""
    from pdcsite.celery import app

    app.send_task(CHECK_TASK, kwargs={"slug": slug}, queue="default")
