"""A quiz has an English title and description for English pages (one language at a time): the
site's own default quizzes get theirs at import, staff write theirs in the quiz editor, and a
quiz without one shows its title as written."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.test import Client

from accounts.services import user_create_with_role
from gradebook.models import GradeItem
from quizzes.models import Question, Quiz
from quizzes.services import quiz_gradebook_item, quizzes_ensure_defaults

pytestmark = pytest.mark.django_db

CJK = re.compile(r"[\u4e00-\u9fff]")
TITLES = {1: "引论：为什么需要并行", 2: "异构编程：CUDA 核心"}


def _english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def _quiz_links(html: str) -> list[str]:
    return re.findall(r'<a href="/quizzes/[\w-]+/">(.*?)</a>', html)


def test_default_quizzes_read_in_the_page_language(client_a) -> None:
    quizzes_ensure_defaults(TITLES)
    chinese = _quiz_links(client_a.get("/quizzes/").content.decode())
    assert any("第 1 讲练习：引论：为什么需要并行" in link for link in chinese)
    _english(client_a)
    english = _quiz_links(client_a.get("/quizzes/").content.decode())
    assert "Lecture 1 practice" in english and "Self-test (lectures 1–10)" in english
    assert not any(CJK.search(link) for link in english), english
    detail = client_a.get("/quizzes/selftest/").content.decode()
    assert "<h1>Self-test (lectures 1–10)</h1>" in detail
    assert "A mixed self-test over all of lectures 1–10" in detail and "综合自测" not in detail


def test_import_fills_english_titles_of_old_defaults_and_keeps_staff_words() -> None:
    quizzes_ensure_defaults(TITLES)
    Quiz.objects.filter(slug="practice-l1").update(title_en="")  # as made before the field
    Quiz.objects.filter(slug="practice-l2").update(title="第二讲随堂练", title_en="")  # staff's
    quizzes_ensure_defaults(TITLES)
    assert Quiz.objects.get(slug="practice-l1").title_en == "Lecture 1 practice"
    assert Quiz.objects.get(slug="practice-l2").title_en == ""  # staff renamed it: not ours


def test_staff_write_the_english_title_in_the_editor(client_ta, client_a) -> None:
    form = {"title": "第 3 讲小测", "title_en": "Lecture 3 quiz", "slug": "l3-quiz",
            "late_penalty_percent": "0", "grade_max_points": "10", "grading_method": "best"}  # fmt: skip
    assert client_ta.post("/quizzes/staff/", form).status_code == 302
    quiz = Quiz.objects.get(slug="l3-quiz")
    assert quiz.title_en == "Lecture 3 quiz"
    _english(client_ta)
    assert "<h1>Lecture 3 quiz" in client_ta.get("/quizzes/staff/l3-quiz/").content.decode()
    item = quiz_gradebook_item(quiz)
    assert GradeItem.objects.get(pk=item.pk).title_en == "Lecture 3 quiz"


def test_a_quiz_without_an_english_title_shows_its_title(client_ta) -> None:
    form = {"title": "第 4 讲小测", "slug": "l4-quiz", "late_penalty_percent": "0",
            "grade_max_points": "10", "grading_method": "best"}  # fmt: skip
    assert client_ta.post("/quizzes/staff/", form).status_code == 302
    _english(client_ta)
    page = client_ta.get("/quizzes/staff/l4-quiz/").content.decode()
    assert '<h1><span lang="zh-CN">第 4 讲小测</span>' in page


def test_demo_quiz_made_before_english_titles_gets_them_and_its_gradebook_column_follows() -> None:
    from django.core.management import call_command

    from quizzes.tests.factories import question_multiple, question_single

    for i in range(3):
        Question.objects.filter(pk=question_single(f"en5-s{i}").pk).update(lecture=5)
        Question.objects.filter(pk=question_multiple(f"en5-m{i}").pk).update(lecture=5)
    call_command("publish_demo_quiz")
    Quiz.objects.filter(slug="demo-l5-graded").update(title_en="", description_en="")
    call_command("publish_demo_quiz")  # kept, and given its English words
    quiz = Quiz.objects.get(slug="demo-l5-graded")
    assert quiz.title_en == "Lecture 5 quiz (graded, demo)" and quiz.description_en
    student = Client()
    student.force_login(
        user_create_with_role(username="s-en5", password="x-pw-2026", role="student")
    )
    _english(student)
    page = student.get("/quizzes/demo-l5-graded/").content.decode()
    assert "(penalty 20%)" in page  # a percentage as the gradebook writes it, not 20.00%
    assert GradeItem.objects.get(key=quiz.gradebook_key).title_en == quiz.title_en
