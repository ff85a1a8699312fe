"""gradinglab/services/submissions.py's claim: one student's submissions are serialised (a row
lock on the student), so two sent at once cannot both pass a rate limit of one. Real threads, real
connections, real row locks (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from gradinglab import dispatch
from gradinglab.models import Submission
from gradinglab.services import submissions
from gradinglab.services.submissions import RateLimited, submission_create
from gradinglab.tests import labkit

CHECKED_BOTH_S = 2.0  # s the first submission waits, after its rate check, for a second one


@pytest.mark.django_db(transaction=True)
def test_two_submissions_at_once_do_not_both_pass_a_limit_of_one(student_a, monkeypatch) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row-lock concurrency is a PostgreSQL property")
    assignment = labkit.make_assignment(rate_limit_count=1, rate_limit_minutes=10)
    monkeypatch.setattr(dispatch, "send_job", lambda queue, payload: None)
    # The pre-check runs after the rate check, in the same transaction: each submission waits
    # there for the other. Serialised, the second is still at the lock, so the wait runs out;
    # raced, both passed the rate check before either stored anything.
    past_the_rate_check = threading.Barrier(2)
    real_precheck = submissions._precheck

    def precheck(*args):
        try:
            past_the_rate_check.wait(timeout=CHECKED_BOTH_S)
        except threading.BrokenBarrierError:
            pass
        return real_precheck(*args)

    monkeypatch.setattr(submissions, "_precheck", precheck)
    start = threading.Barrier(2)
    results: list = [None, None]

    def submit(i: int) -> None:
        try:
            start.wait(timeout=30)  # s: both threads ready
            results[i] = submission_create(
                student=student_a,
                assignment=assignment,
                backend="triton",
                source=labkit.correct_source() + f"# {i}\n",
            )
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()  # each thread owns its own connection

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)  # s: generous for 2 shared cores
    assert not any(thread.is_alive() for thread in threads), "a submission hung"
    kinds = sorted(type(result).__name__ for result in results)
    assert kinds == [RateLimited.__name__, Submission.__name__], results
    assert Submission.objects.filter(assignment=assignment).count() == 1
