"""Similarity on the default queue: one run on demand, and the sweep after deadlines (beat)."""

from __future__ import annotations

from celery import shared_task

from similarity import services


@shared_task(name=services.RUN_TASK, ignore_result=True)
def run(run_id: int) -> str:
    return services.similarity_run_execute(run_id=run_id).status


@shared_task(name="similarity.run_after_deadlines", ignore_result=True)
def run_after_deadlines() -> dict[str, int]:
    return services.similarity_runs_after_deadlines()
