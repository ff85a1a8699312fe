"""A quiz's late penalty has one home, its gradebook item (which charges it): the quiz page, the
review and the settings editor read it there, and a new "迟交扣分" typed in the editor is written
there. Before, the quiz page said "扣分 10%" and the editor showed 10.00 after the gradebook was
changed to 50 %, and a penalty edited on a published quiz said 设置已保存 but changed nothing."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal

import pytest
from django.utils import timezone

from gradebook.models import GradeItem
from gradebook.services import grade_item_late_policy_set
from quizzes.models import Quiz
from quizzes.services import quiz_gradebook_item
from quizzes.tests.factories import late_quiz
from quizzes.tests.test_settings_rescore import settings_data

pytestmark = pytest.mark.django_db

CLOSE = timezone.now() + timedelta(days=3)


@pytest.fixture
def quiz(db) -> Quiz:
    quiz = late_quiz(slug="late-home", closes_at=CLOSE, late_days=2, penalty="10")
    quiz_gradebook_item(quiz)  # as publishing does
    return quiz


def _item(quiz: Quiz) -> GradeItem:
    return GradeItem.objects.get(key=quiz.gradebook_key)


def _editor_field(client, quiz: Quiz):
    return client.get(f"/quizzes/staff/{quiz.slug}/").context["settings_form"][
        "late_penalty_percent"
    ]


def test_pages_show_the_gradebooks_penalty(quiz, client_a, client_instructor) -> None:
    late = {"late_policy": "penalty", "late_penalty_per_day": 50, "late_penalty_cap": 50}
    grade_item_late_policy_set(item=_item(quiz), late=late)
    page = client_a.get(f"/quizzes/{quiz.slug}/").content.decode()
    assert "扣分 50%" in page and "10%" not in page
    field = _editor_field(client_instructor, quiz)
    assert Decimal(field.value()) == Decimal("50") and not field.field.disabled


def test_a_per_day_policy_is_said_in_words_and_edited_in_the_gradebook(
    quiz, client_a, client_instructor
) -> None:
    late = {"late_policy": "penalty", "late_penalty_per_day": 10, "late_penalty_cap": 30}
    grade_item_late_policy_set(item=_item(quiz), late=late)
    assert "按天扣分：每天 10%，上限 30%" in client_a.get(f"/quizzes/{quiz.slug}/").content.decode()
    field = _editor_field(client_instructor, quiz)
    assert field.field.disabled and "每天 10%，上限 30%" in field.help_text


def test_a_penalty_typed_in_the_editor_becomes_the_gradebooks(quiz, client_instructor) -> None:
    response = client_instructor.post(
        f"/quizzes/staff/{quiz.slug}/settings/", settings_data(quiz, late_penalty_percent="25")
    )
    assert response.status_code == 302
    item = _item(quiz)
    assert (item.late_policy, item.late_penalty_per_day, item.late_penalty_cap) == (
        "penalty",
        Decimal("25"),
        Decimal("25"),
    )
