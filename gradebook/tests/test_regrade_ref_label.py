"""A regrade request about a quiz attempt names it as a person reads it ("测验作答 #5", "Quiz
attempt #5") on the request's page, the student's form and the staff queue, never by its stored
ref ("quiz-attempt:5", the kind the quizzes register and the admin's help text suggests), which
these pages showed as it was."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from gradebook.services import regrade_request_create
from gradebook.templatetags.gradebook_tags import ref_label
from quizzes.services import answer_save, attempt_start, attempt_submit, quiz_gradebook_item
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db


@pytest.fixture
def asked(student_a):
    question = question_single("ref-label")
    quiz = quiz_with([question])
    attempt = attempt_start(quiz=quiz, student=student_a)
    answer_save(
        attempt_id=attempt.pk, student=student_a, question_id=question.pk, data={"value": ["a"]}
    )
    attempt_submit(attempt_id=attempt.pk)
    item = quiz_gradebook_item(quiz)
    ref = f"quiz-attempt:{attempt.pk}"
    request = regrade_request_create(student=student_a, item=item, ref=ref, message="第 1 题")
    return request, attempt


@pytest.mark.parametrize(("lang", "label"), [("zh-hans", "测验作答 #"), ("en", "Quiz attempt #")])
def test_a_quiz_attempt_ref_reads_as_its_label(asked, client_a, client_ta, lang, label) -> None:
    request, attempt = asked
    pages = [
        (client_a, f"/grades/regrades/{request.pk}/"),
        (client_a, f"/grades/regrades/new/?item={request.item.key}&ref={request.ref}"),
        (client_ta, "/grades/staff/regrades/"),
    ]
    for client, url in pages:
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        page = client.get(url).content.decode()
        assert f"{label}{attempt.pk}" in page, url
        text = re.sub(r"<[^>]*>", " ", page)  # what is read: not the form's hidden ref, not URLs
        assert "quiz-attempt:" not in text, url


LABELS = {
    "zh-hans": {"submission:12": "提交 #12", "quiz-attempt:5": "测验作答 #5"},
    "en": {"submission:12": "Submission #12", "quiz-attempt:5": "Quiz attempt #5"},
}


@pytest.mark.parametrize("lang", LABELS)
def test_each_kind_of_ref_reads_as_its_label(lang: str) -> None:
    """The two kinds of ref the apps write and register (gradebook.refs: the lab's submissions, the
    quizzes' attempts) read as their labels; a ref of any other kind ("attempt:5", which nothing
    writes) shows as stored."""
    with translation.override(lang):
        assert {ref: ref_label(ref) for ref in LABELS[lang]} == LABELS[lang]
        assert ref_label("attempt:5") == "attempt:5"
