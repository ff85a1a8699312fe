"""A regrade request says what to look at again: a message under REGRADE_MESSAGE_MIN characters
after stripping ("x", "请复核") is refused at the message field, in the page's language, with what
was typed kept in the box; one that long is accepted."""

from __future__ import annotations

import re
from html import unescape

import pytest
from django.conf import settings

from gradebook.forms import REGRADE_MESSAGE_MIN
from gradebook.models import RegradeRequest

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
