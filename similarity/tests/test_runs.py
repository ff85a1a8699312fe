"""Runs: the staff button queues one on the default queue (sent after commit); the beat's sweep
runs each assignment once after its deadline, and one failing assignment never stops the others."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from gradinglab.tests.labkit import purge, take_messages
from gradinglab.worker.queues import DEFAULT_QUEUE
from similarity import services
from similarity.models import SimilarityRun
from similarity.tasks import run as run_task
from similarity.tests.corpus import INDEPENDENT
from similarity.tests.kit import softmax_assignment, students, submit

pytestmark = pytest.mark.django_db


def test_the_button_queues_a_run_on_the_default_queue(
    client_ta, django_capture_on_commit_callbacks
) -> None:
    assignment = softmax_assignment()
    purge(DEFAULT_QUEUE)  # messages other tests left there (the reaper's, say) are not this one
    with django_capture_on_commit_callbacks(execute=True):
        response = client_ta.post(f"/staff/similarity/assignments/{assignment.pk}/run/")
    assert response.status_code == 302
    run = SimilarityRun.objects.get(assignment=assignment)
    assert run.status == SimilarityRun.Status.QUEUED and run.trigger == "manual"
    assert (services.RUN_TASK, {"run_id": run.pk}) in take_messages(DEFAULT_QUEUE)
    assert run_task(run.pk) == SimilarityRun.Status.DONE  # the task body, run inline
    assert run_task(run.pk) == SimilarityRun.Status.DONE  # re-delivered: nothing happens twice
    assert SimilarityRun.objects.get(pk=run.pk).pairs.count() == 0


def test_a_redelivered_task_never_stores_a_run_twice() -> None:
    assignment = softmax_assignment()
    users = students(["a", "b"])
    submit(assignment, users["a"], INDEPENDENT[2])
    submit(assignment, users["b"], INDEPENDENT[2])
    run = services.similarity_run_request(assignment=assignment, actor=None)
    SimilarityRun.objects.filter(pk=run.pk).update(status=SimilarityRun.Status.RUNNING)
    assert run_task(run.pk) == SimilarityRun.Status.RUNNING  # another worker holds it
    SimilarityRun.objects.filter(pk=run.pk).update(status=SimilarityRun.Status.QUEUED)
    assert run_task(run.pk) == SimilarityRun.Status.DONE
    assert run_task(run.pk) == SimilarityRun.Status.DONE
    assert SimilarityRun.objects.get(pk=run.pk).pairs.count() == 1


def test_the_run_task_is_on_the_beat_schedule_and_routed_to_default() -> None:
    from django.conf import settings

    entry = settings.CELERY_BEAT_SCHEDULE["similarity-after-deadlines"]
    assert entry["task"] == "similarity.run_after_deadlines"
    assert settings.CELERY_TASK_DEFAULT_QUEUE == DEFAULT_QUEUE


def test_after_deadlines_each_assignment_runs_once_and_a_bad_one_does_not_stop_others(
    monkeypatch,
) -> None:
    now = timezone.now()
    # `broken` first: the sweep goes by pk, so the failure comes before the good one.
    broken = softmax_assignment(title="broken", due_at=now - timedelta(hours=1))
    past = softmax_assignment(title="past", due_at=now - timedelta(hours=2))
    late = softmax_assignment(title="late", due_at=now - timedelta(hours=3),
                              late_until=now + timedelta(hours=1))  # fmt: skip
    softmax_assignment(title="future", due_at=now + timedelta(days=1))
    users = students(["a", "b"])
    for assignment in (past, broken):
        submit(assignment, users["a"], INDEPENDENT[1])
        submit(assignment, users["b"], INDEPENDENT[1])
    real = services._compute

    def compute(run):
        if run.assignment_id == broken.pk:
            raise RuntimeError("a corrupt row")
        return real(run)

    monkeypatch.setattr(services, "_compute", compute)
    counts = services.similarity_runs_after_deadlines(now=now)
    assert counts == {"ran": 1, "errors": 1}
    assert past.similarity_runs.get().status == SimilarityRun.Status.DONE
    assert past.similarity_runs.get().pairs.count() == 1
    assert broken.similarity_runs.get().status == SimilarityRun.Status.FAILED
    assert not late.similarity_runs.exists()  # still accepting late work
    assert services.similarity_runs_after_deadlines(now=now) == {"ran": 0, "errors": 0}


def test_a_later_run_reuses_fingerprints_and_an_edited_source_gets_new_ones(monkeypatch) -> None:
    from similarity import fingerprint
    from similarity.models import FingerprintCache

    assignment = softmax_assignment()
    users = students(["a", "b"])
    submit(assignment, users["a"], INDEPENDENT[2])
    submit(assignment, users["b"], INDEPENDENT[2])
    first = services.similarity_run_request(assignment=assignment, actor=None)
    assert services.similarity_run_execute(run_id=first.pk).pairs.count() == 1
    assert FingerprintCache.objects.count() == 1  # one text, one row

    def refuse(*_args):
        raise AssertionError("tokenised again")

    monkeypatch.setattr(fingerprint, "fingerprints", refuse)
    again = services.similarity_run_request(assignment=assignment, actor=None)
    assert services.similarity_run_execute(run_id=again.pk).pairs.count() == 1
    monkeypatch.undo()
    # A resubmission (same stored hash column, new text) is fingerprinted on its own text.
    edited = submit(assignment, users["b"], INDEPENDENT[7])
    edited.sha256 = assignment.submissions.exclude(pk=edited.pk).first().sha256
    edited.save(update_fields=["sha256"])
    third = services.similarity_run_request(assignment=assignment, actor=None)
    assert services.similarity_run_execute(run_id=third.pk).pairs.count() == 0
    assert FingerprintCache.objects.count() == 2
