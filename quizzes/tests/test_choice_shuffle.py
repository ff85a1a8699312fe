"""Must hold 1 (delivery) and 2: choices are shuffled per attempt in every quiz, seeded so a reload
keeps the order; grading goes by the choice picked, never its position; and "always the first
choice" scores below 40 % in every quiz the bank import creates."""

import re
from decimal import Decimal

import pytest
from django.core.management import call_command

from quizzes import services
from quizzes.generators import variant_seed
from quizzes.models import Attempt, Choice, Question, Quiz
from quizzes.selectors import attempt_questions
from quizzes.services import answer_save, attempt_submit
from quizzes.tests.factories import question_single, quiz_with

ALWAYS_FIRST_LIMIT = Decimal("0.40")  # fraction of the quiz's points
ALWAYS_FIRST_RUNS = 3  # attempts per quiz, each with its own pinned seed


def _start(client, quiz: Quiz) -> Attempt:
    response = client.post(f"/quizzes/{quiz.slug}/start/")
    assert response.status_code == 302, response.content
    return Attempt.objects.get(pk=int(response["Location"].rstrip("/").split("/")[-1]))


def _order(attempt: Attempt) -> list[list[str]]:
    return [[c.key for c in view.choices] for view in attempt_questions(attempt)]


@pytest.fixture
def bank(db):
    call_command("import_quizzes", verbosity=0)
    return list(Quiz.objects.order_by("slug"))


def _first_choice_value(view) -> str | None:
    """What a student clicking the first thing offered sends (None: a number to type)."""
    if view.choices:
        return view.choices[0].key
    if view.question.qtype == Question.Type.TRUEFALSE:
        return "true"  # the first of the two radio buttons, 对
    return None


def _pin_attempt_seeds(monkeypatch, bank: list[Quiz]) -> None:
    """Attempt seeds normally mix in database ids, which differ from run to run; pinning them to
    (quiz slug, attempt number) makes the drawn questions and choice orders, hence the scores,
    reproducible."""
    slugs = {quiz.pk: quiz.slug for quiz in bank}

    def pinned(*parts: object) -> int:
        if len(parts) == 5 and parts[1] == "attempt":
            return variant_seed("always-first", slugs[parts[3]], parts[4])
        return variant_seed(*parts)

    monkeypatch.setattr(services, "variant_seed", pinned)


def _take_always_first(client, student, quiz: Quiz) -> Decimal:
    """One attempt answering the first choice offered everywhere; returns the score share.

    Answers go through the service the answer endpoint calls (the endpoint also renders practice
    feedback for every save, ~20x the cost); start and submit go through HTTP."""
    attempt = _start(client, quiz)
    for view in attempt_questions(attempt):
        value = _first_choice_value(view)
        if value is not None:
            data = {"value": [value]}
            saved = answer_save(
                attempt_id=attempt.pk, student=student, question_id=view.question.pk, data=data
            )
            assert saved.saved, saved.message
    assert client.post(f"/quizzes/attempt/{attempt.pk}/submit/").status_code == 302
    attempt.refresh_from_db()
    return attempt.raw_score / attempt.raw_max


def test_always_first_choice_scores_below_40_percent_in_every_quiz(
    bank, student_a, client_a, monkeypatch
) -> None:
    """With shuffled choices "always first" is a blind guess, so one attempt's score varies
    (about ±0.1 on a 25-question quiz); the mean of a few attempts is what position bias would
    push up (before the shuffle: ~0.99 in the practice quizzes)."""
    assert {q.kind for q in bank} >= {Quiz.Kind.PRACTICE, Quiz.Kind.SELFTEST}
    _pin_attempt_seeds(monkeypatch, bank)
    for quiz in bank:
        shares = [_take_always_first(client_a, student_a, quiz) for _ in range(ALWAYS_FIRST_RUNS)]
        mean = sum(shares) / len(shares)
        assert mean < ALWAYS_FIRST_LIMIT, (quiz.slug, [float(x) for x in shares])


def test_every_quiz_shuffles_choices_stable_on_reload_new_per_attempt(bank, student_a) -> None:
    from quizzes.services import attempt_start

    practice = Quiz.objects.get(slug="practice-l2")
    assert all(q.shuffle_choices for q in bank)
    first = attempt_start(quiz=practice, student=student_a)
    order = _order(first)
    file_order = [[c.key for c in v.question.choices.all()] for v in attempt_questions(first)]
    assert order != file_order  # shuffled, not the bank file's order
    assert _order(Attempt.objects.get(pk=first.pk)) == order  # a reload shows the same order
    attempt_submit(attempt_id=first.pk)
    second = attempt_start(quiz=practice, student=student_a)
    assert second.pk != first.pk and _order(second) != order  # a new attempt, a new order


def test_other_student_gets_another_order(bank, student_a, student_b) -> None:
    from quizzes.services import attempt_start

    practice = Quiz.objects.get(slug="practice-l3")
    a = _order(attempt_start(quiz=practice, student=student_a))
    b = _order(attempt_start(quiz=practice, student=student_b))
    assert a != b


def test_grading_follows_the_choice_not_its_position(db, client_a) -> None:
    """The student picks the right choice wherever the shuffle put it; the file then reorders
    its choices (positions change) and the answer is still the right one."""
    question = question_single("shuffle-id", correct="c")
    quiz = quiz_with([question], slug="shuffled", kind=Quiz.Kind.PRACTICE)
    attempt = _start(client_a, quiz)
    (view,) = attempt_questions(attempt)
    right = next(c for c in view.choices if c.correct)
    url = f"/quizzes/attempt/{attempt.pk}/answer/{question.pk}/"
    assert client_a.post(url, {"value": right.key}).status_code == 200
    Choice.objects.filter(question=question).update(position=9)
    Choice.objects.filter(question=question, key=right.key).update(position=0)
    client_a.post(f"/quizzes/attempt/{attempt.pk}/submit/")
    attempt.refresh_from_db()
    assert attempt.raw_score == attempt.raw_max == Decimal("1")
    review = client_a.get(f"/quizzes/attempt/{attempt.pk}/review/").content.decode()
    # labelled by the position the student saw
    assert re.search(rf"{right.label}\. (<span[^>]*>)?{right.text}<", review)
