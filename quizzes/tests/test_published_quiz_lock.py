"""A published graded quiz is the instructors' to change (quizzes.access.can_change).

A TA (who may author but not publish) could change a published quiz's settings (attempts, points,
dates), its picked questions, their points and its drawing rules, on the staff editor and in the
admin: what students were taking and how it counted in the gradebook. Now the editor shows the
TA the quiz without its forms and says why; a TA's POST changes nothing and comes back to that
message; the admin shows the quiz read-only. Drafts stay the TAs' to edit."""

from __future__ import annotations

import html
from decimal import Decimal

import pytest
from django.conf import settings

from quizzes.models import Question, Quiz, QuizRule
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db

STAFF = "/quizzes/staff/"
LOCKED = "这个测验已发布或已有学生交卷：只有教师能修改它的设置、选题、分值和抽题规则。"
LOCKED_EN = "This quiz is published or students have handed it in: only instructors can"


@pytest.fixture
def questions(db) -> list[Question]:
    return [question_single(f"lock-{i}") for i in range(3)]


@pytest.fixture
def published(questions) -> Quiz:
    quiz = quiz_with(questions[:2], slug="locked", grade_max_points=Decimal("10"), max_attempts=1)
    QuizRule.objects.create(quiz=quiz, count=1, points=Decimal("1"))
    return quiz


def _settings(quiz: Quiz, **changes: str) -> dict[str, str]:
    data = {
        "title": quiz.title, "slug": quiz.slug, "late_penalty_percent": "0",
        "grade_max_points": "10", "grading_method": "best", "max_attempts": "1",
    }  # fmt: skip
    return data | changes


def _state(quiz: Quiz) -> tuple:
    quiz.refresh_from_db()
    pool = sorted(quiz.pool.values_list("question_id", "points"))
    return quiz.max_attempts, quiz.grade_max_points, pool, quiz.rules.count()


def _edits(quiz: Quiz, questions: list[Question]) -> list[tuple[str, dict]]:
    rule = quiz.rules.get()
    return [
        ("settings/", _settings(quiz, max_attempts="99", grade_max_points="1000")),
        ("pick/", {"questions": [questions[2].pk], "points": "50"}),
        ("points/", {"question": questions[0].pk, "points": "99"}),
        ("points/", {"question": questions[0].pk, "remove": "1"}),
        ("rules/", {"count": "1", "points": "40"}),
        (f"rules/{rule.pk}/remove/", {}),
    ]


def test_a_ta_changes_nothing_on_a_published_quiz_and_is_told_why(
    client_ta, published, questions
) -> None:
    before = _state(published)
    for action, data in _edits(published, questions):
        response = client_ta.post(f"{STAFF}{published.slug}/{action}", data, follow=True)
        assert response.redirect_chain == [(f"{STAFF}{published.slug}/", 302)], action
        assert LOCKED in html.unescape(response.content.decode()), action
        assert _state(published) == before, action


def test_an_instructor_still_changes_a_published_quiz(
    client_instructor, published, questions
) -> None:
    for action, data in _edits(published, questions):
        response = client_instructor.post(f"{STAFF}{published.slug}/{action}", data, follow=True)
        assert response.status_code == 200 and LOCKED not in response.content.decode(), action
    published.refresh_from_db()
    assert published.max_attempts == 99 and published.rules.get().points == Decimal("40")


def test_a_ta_still_edits_a_draft(client_ta, questions) -> None:
    draft = quiz_with(questions[:1], slug="draft", published=False)
    response = client_ta.post(f"{STAFF}draft/settings/", _settings(draft, max_attempts="3"))
    assert response.status_code == 302
    draft.refresh_from_db()
    assert draft.max_attempts == 3


def test_a_ta_cannot_change_a_quiz_taken_back_to_a_draft_after_students_handed_it_in(
    client_ta, published, student_a
) -> None:
    """Its settings would still rescore the grades given and set its gradebook item's policy."""
    from quizzes.services import attempt_start, attempt_submit

    attempt_submit(attempt_id=attempt_start(quiz=published, student=student_a).pk)
    Quiz.objects.filter(pk=published.pk).update(published=False)
    published.refresh_from_db()
    before = _state(published)
    response = client_ta.post(
        f"{STAFF}{published.slug}/settings/", _settings(published, max_attempts="9")
    )
    assert response.status_code == 302 and _state(published) == before
    page = client_ta.get(response["Location"]).content.decode()
    assert LOCKED in html.unescape(page)


def test_the_editor_shows_a_ta_the_published_quiz_without_its_forms(
    client_ta, client_instructor, published
) -> None:
    page = client_ta.get(f"{STAFF}{published.slug}/").content.decode()
    assert 'id="locked-note"' in page and LOCKED in html.unescape(page)
    for form in (
        "settings/",
        "points/",
        "rules/",
        "pick-link",
        f"rules/{published.rules.get().pk}",
    ):
        assert form not in page, form
    assert '<fieldset class="stack" id="settings-form" disabled>' in page  # settings, shown
    bank = client_ta.get(f"{STAFF}bank/?quiz={published.slug}").content.decode()
    assert 'id="pick-form"' not in bank
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = html.unescape(client_ta.get(f"{STAFF}{published.slug}/").content.decode())
    assert LOCKED_EN in english and LOCKED not in english
    mine = client_instructor.get(f"{STAFF}{published.slug}/").content.decode()
    assert 'id="locked-note"' not in mine and 'action="/quizzes/staff/locked/settings/"' in mine


def test_the_admin_shows_a_ta_the_published_quiz_read_only(
    client_ta, client_instructor, published
) -> None:
    url = f"/admin/quizzes/quiz/{published.pk}/change/"
    page = client_ta.get(url)
    text = html.unescape(page.content.decode())
    assert page.status_code == 200 and LOCKED in text
    assert 'name="max_attempts"' not in text and 'name="pool-0-points"' not in text
    before = _state(published)
    assert client_ta.post(url, {"max_attempts": "99"}).status_code == 403
    assert _state(published) == before
    mine = client_instructor.get(url).content.decode()
    assert 'name="max_attempts"' in mine and LOCKED not in html.unescape(mine)
    draft = quiz_with([], slug="draft-admin", published=False)
    assert (
        'name="max_attempts"'
        in client_ta.get(f"/admin/quizzes/quiz/{draft.pk}/change/").content.decode()
    )


def test_an_answered_question_is_read_only_to_a_ta_in_the_admin(
    client_ta, client_instructor, published, student_a
) -> None:
    """Its answer and points decided grades already given; an unanswered one a TA still edits."""
    from quizzes.services import answer_save, attempt_start

    attempt = attempt_start(quiz=published, student=student_a)
    answered = Question.objects.get(pk=attempt.question_ids[0])
    answer_save(attempt_id=attempt.pk, student=student_a, question_id=answered.pk,
                data={"value": ["a"]})  # fmt: skip
    url = f"/admin/quizzes/question/{answered.pk}/change/"
    page = html.unescape(client_ta.get(url).content.decode())
    assert "学生已经作答过这道题：只有教师能修改它。" in page and 'name="stem"' not in page
    assert client_ta.post(url, {"stem": "改了"}).status_code == 403
    answered.refresh_from_db()
    assert answered.stem != "改了"
    assert 'name="stem"' in client_instructor.get(url).content.decode()
    fresh = question_single("lock-fresh")
    assert (
        'name="stem"'
        in client_ta.get(f"/admin/quizzes/question/{fresh.pk}/change/").content.decode()
    )
