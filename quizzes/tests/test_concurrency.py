"""Must hold 4: on PostgreSQL, 50 parallel autosaves then two parallel submits -> every answer
kept, exactly one grade. Real threads, real connections, real row locks."""

import threading
from decimal import Decimal

import pytest
from django.db import connection
from django.test import Client

from gradebook.models import Grade, GradeEvent
from quizzes.models import Answer, Attempt
from quizzes.services import attempt_start
from quizzes.tests.factories import question_single, quiz_with

N_ANSWERS = 50


def _run_parallel(workers: list) -> list:
    """Start every worker at the same instant (barrier); collect results and exceptions."""
    barrier = threading.Barrier(len(workers))
    results: list = [None] * len(workers)

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)  # s: all threads connected and ready
            results[i] = workers[i]()
        except Exception as exc:
            results[i] = exc
        finally:
            connection.close()  # each thread owns its own connection

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)  # s: generous for 2 shared cores
    assert not any(t.is_alive() for t in threads), "a worker hung"
    return results


@pytest.mark.django_db(transaction=True)
def test_parallel_autosaves_then_double_submit(student_a) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row-lock concurrency is a PostgreSQL property")
    questions = [question_single(f"cc-{i:02d}", correct="b") for i in range(N_ANSWERS)]
    quiz = quiz_with(questions, grade_max_points=Decimal("50"))
    attempt = attempt_start(quiz=quiz, student=student_a)
    # each of 50 students' browsers... here: 50 simultaneous autosaves of one attempt, each with
    # its own logged-in HTTP client and database connection
    clients = []
    for _ in range(N_ANSWERS):
        client = Client()
        client.force_login(student_a)
        clients.append(client)

    def saver(i: int):
        choice = "b" if i % 2 == 0 else "c"  # 25 right, 25 wrong
        return clients[i].post(
            f"/quizzes/attempt/{attempt.pk}/answer/{questions[i].pk}/", {"value": choice}
        )

    responses = _run_parallel([lambda i=i: saver(i) for i in range(N_ANSWERS)])
    assert all(getattr(r, "status_code", None) == 200 for r in responses), responses
    assert all(r["X-Quiz-Saved"] == "1" for r in responses)
    assert Answer.objects.filter(attempt=attempt).count() == N_ANSWERS

    def submitter(client: Client):
        return client.post(f"/quizzes/attempt/{attempt.pk}/submit/")

    submits = _run_parallel([lambda c=clients[0]: submitter(c), lambda c=clients[1]: submitter(c)])
    assert [getattr(r, "status_code", r) for r in submits] == [302, 302]

    attempt.refresh_from_db()
    assert attempt.state == Attempt.State.SUBMITTED
    saved = dict(
        Answer.objects.filter(attempt=attempt).values_list("question__bank_id", "selected")
    )
    assert saved == {f"cc-{i:02d}": ["b" if i % 2 == 0 else "c"] for i in range(N_ANSWERS)}
    assert attempt.raw_score == Decimal("25.000") and attempt.score == Decimal("25.00")
    grades = Grade.objects.filter(student=student_a, item__key=quiz.gradebook_key)
    assert grades.count() == 1 and grades.get().points == Decimal("25.00")
    assert GradeEvent.objects.filter(item__key=quiz.gradebook_key).count() == 1


@pytest.mark.django_db(transaction=True)
def test_double_start_opens_one_attempt(student_a) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    quiz = quiz_with([question_single("ds-1")])
    results = _run_parallel([lambda: attempt_start(quiz=quiz, student=student_a)] * 4)
    assert all(isinstance(r, Attempt) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert Attempt.objects.filter(quiz=quiz, student=student_a).count() == 1
