"""A regrade request says what to look at again: a message under REGRADE_MESSAGE_MIN characters
after stripping ("x", "请复核") is refused at the message field, in the page's language, with what
was typed kept in the box; one that long is accepted. The rule is the service's: a request made
by any other path than the form (a script, a future API) is refused in the same words."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings
from django.utils import translation

from gradebook.models import RegradeRequest
from gradebook.services import REGRADE_MESSAGE_MIN, GradeError, regrade_request_create

pytestmark = pytest.mark.django_db

NEW = "/grades/regrades/new/"
SAID = {
    "zh-hans": f"请写明需要复核什么、为什么：至少 {REGRADE_MESSAGE_MIN} 个字符（现在 1 个）。",
    "en": f"Say what should be looked at again, and why: at least {REGRADE_MESSAGE_MIN} characters "
    "(1 so far).",
}


@pytest.mark.parametrize("lang", SAID)
def test_a_one_character_message_is_refused_at_the_field(client_a, make_item, lang) -> None:
    item = make_item("lab:3", max_points=100)
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client_a.post(NEW, {"item": item.key, "ref": "testref:1", "message": "  x  "})
    page = unescape(response.content.decode())
    assert response.status_code == 400 and not RegradeRequest.objects.exists()
    field = re.search(r'<ul class="errorlist" id="id_message_error">(.*?)</ul>', page, re.S)
    assert field and SAID[lang] in field[1]
    assert re.search(
        r'<textarea name="message"[^>]*aria-invalid="true"[^>]*>\s*x\s*</textarea>', page
    )


def test_a_message_of_the_minimum_is_accepted(client_a, make_item) -> None:
    item = make_item("lab:3", max_points=100)
    message = "第二题错了"
    assert len(message) == REGRADE_MESSAGE_MIN
    response = client_a.post(NEW, {"item": item.key, "ref": "testref:1", "message": f" {message} "})
    assert response.status_code == 302
    assert RegradeRequest.objects.get().message == message


@pytest.mark.parametrize("lang", SAID)
def test_the_service_refuses_a_short_message_whoever_calls_it(student_a, make_item, lang) -> None:
    item = make_item("lab:3", max_points=100)
    with translation.override(lang), pytest.raises(GradeError) as refused:
        regrade_request_create(student=student_a, item=item, ref="testref:1", message="  x  ")
    assert str(refused.value) == SAID[lang]
    assert not RegradeRequest.objects.exists()


def test_the_service_counts_the_message_after_stripping(student_a, make_item) -> None:
    item = make_item("lab:3", max_points=100)
    with pytest.raises(GradeError):
        regrade_request_create(student=student_a, item=item, ref="testref:1", message=" 第二题错 ")
    made = regrade_request_create(
        student=student_a, item=item, ref="testref:1", message=" 第二题错了 "
    )
    assert made.message == "第二题错了"
