"""A quiz's slug (短名) and a question's id (题目编号) are unique: a staff member who types one that
is taken is told so at the field, in the page's language, and what to do. The forms said Django's
default, "Quiz with this Slug already exists." (in Chinese, "已有短名相同的测验。"), with no word of
what a slug is for."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.forms.models import model_to_dict

from conftest import admin_form_errors
from quizzes.models import Question, Quiz
from quizzes.tests.factories import question_single
from quizzes.tests.test_authoring_english import _field_errors

pytestmark = pytest.mark.django_db

STAFF = "/quizzes/staff/"
TAKEN = {
    "zh-hans": "这个短名已被另一个测验使用。短名是测验网址的一部分，不能重复：请换一个，"
    "例如在末尾加上年份（quiz-5-2026）。",
    "en": "This slug is already used by another quiz. A slug is part of the quiz's web address and "
    "must be unique: choose another one, for example with the year at its end (quiz-5-2026).",
}
ID_TAKEN = {
    "zh-hans": "这个题目编号已被另一道题使用。请换一个，例如下一个序号（l5-s21）。",
    "en": "This question id is already used by another question. Choose another one, for example "
    "the next number (l5-s21).",
}


def _settings(slug: str, title: str = "小测") -> dict:
    return {"title": title, "slug": slug, "late_penalty_percent": "0", "grade_max_points": "10",
            "grading_method": "best"}  # fmt: skip


@pytest.mark.parametrize("lang", sorted(TAKEN))
def test_a_new_quiz_with_a_taken_slug_is_told_so(client_ta, lang: str) -> None:
    assert client_ta.post(STAFF, _settings("quiz-5")).status_code == 302
    client_ta.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client_ta.post(STAFF, _settings("quiz-5", title="另一个小测"))
    page = response.content.decode()
    assert response.status_code == 400
    assert _field_errors(page, "slug") == [TAKEN[lang].replace("'", "&#x27;")]
    assert "另一个小测" in page  # what was typed is still in the form
    assert Quiz.objects.filter(slug="quiz-5").count() == 1


def test_renaming_a_quiz_to_a_taken_slug_is_told_so(client_ta) -> None:
    for slug in ("quiz-5", "quiz-6"):
        assert client_ta.post(STAFF, _settings(slug)).status_code == 302
    response = client_ta.post(f"{STAFF}quiz-6/settings/", _settings("quiz-5"))
    assert response.status_code == 400
    assert _field_errors(response.content.decode(), "slug") == [TAKEN["zh-hans"]]


@pytest.mark.parametrize("lang", sorted(ID_TAKEN))
def test_a_question_added_in_the_admin_with_a_taken_id_is_told_so(client_ta, lang: str) -> None:
    taken = question_single("l5-s20")
    add = "/admin/quizzes/question/add/"
    fields = client_ta.get(add).context["adminform"].form.fields
    data = {k: "" if v is None else v for k, v in model_to_dict(taken, fields=fields).items()}
    data |= {"choices-TOTAL_FORMS": "0", "choices-INITIAL_FORMS": "0"}
    assert admin_form_errors(client_ta, add, data, lang) == {"bank_id": [ID_TAKEN[lang]]}
    assert Question.objects.filter(bank_id="l5-s20").count() == 1
