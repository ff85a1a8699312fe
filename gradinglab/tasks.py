"""Celery tasks of the Django-side app (`celery -A pdcsite`): grading (same body and name as the
Django-free worker app in gradinglab.worker, so both post results over HTTP) and the reaper."""

from __future__ import annotations

from typing import Any

from celery import shared_task, signals

from gradinglab import jobs


@shared_task(name=jobs.GRADE_TASK, acks_late=True, reject_on_worker_lost=True)
def grade_submission(payload: dict[str, Any]) -> str:
    return jobs.execute(payload)


@shared_task(name="gradinglab.reap_stuck")
def reap_stuck(broker_reset: bool = False) -> dict[str, int]:
    from gradinglab.services import submissions_reap

    return submissions_reap(broker_reset=broker_reset)


@shared_task(name="gradinglab.check_problem")
def check_problem(slug: str) -> bool:
    """The publishing check of one package (admin action); recorded on the problem."""
    from gradinglab.services import problem_check_record

    return problem_check_record(slug=slug).passed


@signals.worker_ready.connect
def _start_heartbeat(**_: Any) -> None:
    jobs.start_heartbeat()
