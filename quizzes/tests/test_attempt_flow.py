"""Attempts through HTTP: access checks, practice feedback, review options, attempts limit,
grading methods into the gradebook, bad input, drawing and shuffling."""

import re
from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import Grade
from quizzes.models import Attempt, Quiz
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import (
    question_multiple,
    question_numeric,
    question_single,
    quiz_with,
)


def _start(client, quiz: Quiz) -> Attempt:
    response = client.post(f"/quizzes/{quiz.slug}/start/")
    assert response.status_code == 302, response.content
    return Attempt.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def _answer(client, attempt: Attempt, question, value):
    return client.post(f"/quizzes/attempt/{attempt.pk}/answer/{question.pk}/", {"value": value})


@pytest.fixture
def graded(db):
    q1, q2, q3 = question_single("g-1"), question_multiple("g-2"), question_numeric("g-3")
    return quiz_with([q1, q2, q3], grade_max_points=Decimal("30")), (q1, q2, q3)


def test_student_cannot_touch_another_students_attempt(graded, client_a, client_b) -> None:
    quiz, (q1, _q2, _q3) = graded
    attempt = _start(client_a, quiz)
    assert client_b.get(f"/quizzes/attempt/{attempt.pk}/").status_code == 404
    assert _answer(client_b, attempt, q1, "a").status_code == 404
    assert client_b.post(f"/quizzes/attempt/{attempt.pk}/submit/").status_code == 404
    attempt_submit(attempt_id=attempt.pk)
    assert client_b.get(f"/quizzes/attempt/{attempt.pk}/review/").status_code == 404
    assert client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").status_code == 200


def test_staff_review_an_attempt_but_never_take_or_submit_it(graded, client_a, client_ta) -> None:
    """Staff see every attempt (visible_to), but an open one is the student's alone: a TA can
    neither open it for answering, answer in it, nor submit it early."""
    quiz, (q1, _q2, _q3) = graded
    attempt = _start(client_a, quiz)
    assert client_ta.get(f"/quizzes/attempt/{attempt.pk}/").status_code == 404
    assert _answer(client_ta, attempt, q1, "a").status_code == 404
    assert client_ta.post(f"/quizzes/attempt/{attempt.pk}/submit/").status_code == 404
    assert client_ta.get(f"/quizzes/attempt/{attempt.pk}/review/").status_code == 403
    attempt.refresh_from_db()
    assert attempt.is_open and not attempt.answers.exists()
    attempt_submit(attempt_id=attempt.pk)
    assert client_ta.get(f"/quizzes/attempt/{attempt.pk}/review/").status_code == 200


def test_unpublished_quiz_is_hidden_from_students(db, client_a, client_ta) -> None:
    quiz = quiz_with(
        [question_single("h-1")], published=False, slug="secret-quiz", title="秘密测验"
    )
    assert client_a.get("/quizzes/secret-quiz/").status_code == 404
    assert client_a.post("/quizzes/secret-quiz/start/").status_code == 404
    assert client_ta.get("/quizzes/secret-quiz/").status_code == 200
    assert "秘密测验" not in client_a.get("/quizzes/").content.decode()
    assert quiz.title in client_ta.get("/quizzes/").content.decode()


def test_autosave_restores_on_reload_and_bad_number_keeps_old_answer(graded, client_a) -> None:
    quiz, (q1, q2, q3) = graded
    attempt = _start(client_a, quiz)
    assert _answer(client_a, attempt, q1, "c")["X-Quiz-Saved"] == "1"
    assert _answer(client_a, attempt, q2, ["a", "d"])["X-Quiz-Saved"] == "1"
    assert _answer(client_a, attempt, q3, "9.8")["X-Quiz-Saved"] == "1"
    bad = _answer(client_a, attempt, q3, "ten")
    assert bad["X-Quiz-Saved"] == "0" and "不是有效的数字" in bad.content.decode()
    page = client_a.get(f"/quizzes/attempt/{attempt.pk}/").content.decode()
    assert (
        'value="c" checked' in page and 'value="a" checked' in page and 'value="d" checked' in page
    )
    assert 'value="9.8"' in page
    assert attempt.answers.get(question=q3).value == "9.8"
    # a graded quiz shows no correctness during the attempt
    assert "正确答案" not in _answer(client_a, attempt, q1, "a").content.decode()


def test_practice_gives_feedback_right_after_each_answer(db, client_a) -> None:
    q = question_single("p-1", correct="b")
    quiz = quiz_with(
        [q],
        kind=Quiz.Kind.PRACTICE,
        slug="practice",
        review_correctness_during=True,
        review_right_answer_during=True,
        review_explanation_during=True,
    )
    attempt = _start(client_a, quiz)
    wrong = _answer(client_a, attempt, q, "a").content.decode()
    assert (
        "错误" in wrong
        and re.search(r"正确答案：(<span[^>]*>)?[A-D]\. choice b<", wrong)
        and "§1.17" in wrong
    )
    right = _answer(client_a, attempt, q, "b").content.decode()
    assert "✓" in right
    attempt_submit(attempt_id=attempt.pk)
    assert not Grade.objects.filter(student__username="student_a").exists()  # practice: no grade


def test_review_options_after_submit_and_after_close(db, student_a, client_a) -> None:
    q = question_single("r-1", correct="b")
    skipped = question_single("r-2", correct="a")  # left unanswered: labelled, not blank
    quiz = quiz_with(
        [q, skipped],
        slug="reviewed",
        closes_at=timezone.now() + timedelta(hours=1),
        review_correctness_after=True,
        review_points_after=False,
        review_right_answer_after=False,
        review_explanation_after=False,
    )
    attempt = _start(client_a, quiz)
    _answer(client_a, attempt, q, "a")
    client_a.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    page = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    assert "✗" in page and "正确答案" not in page and "解析" not in page
    assert page.count('class="fb-unanswered">未作答<') == 1
    assert "成绩将在测验截止后公布" in page
    Quiz.objects.filter(pk=quiz.pk).update(closes_at=timezone.now() - timedelta(minutes=1))
    page = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    assert (
        re.search(r"正确答案：(<span[^>]*>)?[A-D]\. choice b<", page)
        and "解析" in page
        and "attempt-score" in page
    )


def test_max_attempts_and_grading_methods_reach_the_gradebook(db, student_a, client_a) -> None:
    q = question_single("m-1", correct="a")
    quiz = quiz_with([q], slug="twice", max_attempts=2, grading_method="last")
    first = _start(client_a, quiz)
    _answer(client_a, first, q, "a")
    client_a.post(f"/quizzes/attempt/{first.pk}/submit/")
    grade = Grade.objects.get(student=student_a, item__key=quiz.gradebook_key)
    assert grade.points == Decimal("10.00")
    second = _start(client_a, quiz)
    _answer(client_a, second, q, "b")
    client_a.post(f"/quizzes/attempt/{second.pk}/submit/")
    grade.refresh_from_db()
    assert grade.points == Decimal("0.00")  # method "last"
    response = client_a.post("/quizzes/twice/start/", follow=True)
    assert "已达到最多作答次数" in response.content.decode()
    Quiz.objects.filter(pk=quiz.pk).update(grading_method="best")
    quiz.refresh_from_db()
    # re-posting (e.g. after staff change the method) follows the new method
    from quizzes.services import _post_to_gradebook

    _post_to_gradebook(Attempt.objects.get(pk=second.pk))
    grade.refresh_from_db()
    assert grade.points == Decimal("10.00")


def test_partial_credit_policy_applies_to_multiple_choice(db, student_a) -> None:
    q = question_multiple("pc-1", correct="ab")
    for policy, expected in [
        ("all_or_nothing", "0.00"),
        ("net_correct", "5.00"),
        ("coverage", "5.00"),
    ]:
        quiz = quiz_with([q], slug=f"pc-{policy.replace('_', '-')}", partial_credit=policy)
        attempt = attempt_start(quiz=quiz, student=student_a)
        answer_save(
            attempt_id=attempt.pk, student=student_a, question_id=q.pk, data={"value": ["a"]}
        )
        assert attempt_submit(attempt_id=attempt.pk).score == Decimal(expected), policy


def test_draw_n_and_shuffle_are_fixed_per_attempt(db, student_a, student_b) -> None:
    from quizzes.selectors import attempt_questions

    pool = [question_single(f"d-{i}") for i in range(8)]
    quiz = quiz_with(pool, slug="drawn", draw_count=3, shuffle_questions=True, shuffle_choices=True)
    a = attempt_start(quiz=quiz, student=student_a)
    assert len(a.question_ids) == 3 and set(a.question_ids) <= {q.pk for q in pool}
    orders = [[c.key for c in v.choices] for v in attempt_questions(a)]
    assert orders == [[c.key for c in v.choices] for v in attempt_questions(a)]
    b = attempt_start(quiz=quiz, student=student_b)
    later = [[c.key for c in v.choices] for v in attempt_questions(b)]
    assert a.question_ids != b.question_ids or orders != later
