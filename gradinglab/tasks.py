"""Celery tasks of the Django-side app (`celery -A pdcsite`, queue `default`): the reaper and the
publishing check. The grade task is the grading host's (gradinglab.worker.tasks.register), which
pdcsite.celery puts on this app too, so `make run`'s one worker also grades."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="gradinglab.reap_stuck")
def reap_stuck(broker_reset: bool = False) -> dict[str, int]:
    from gradinglab.services.reaper import submissions_reap

    return submissions_reap(broker_reset=broker_reset)


@shared_task(name="gradinglab.check_problem")
def check_problem(slug: str) -> bool:
    """The publishing check of one package (admin action); recorded on the problem."""
    from gradinglab.services.problem_sync import problem_check_record

    return problem_check_record(slug=slug).passed
