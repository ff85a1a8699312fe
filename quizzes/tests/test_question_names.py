"""A question and a choice are named in the page's language where the admin names them (its
lists, breadcrumbs, the quiz's question picker): the English stem on English pages when there is
one. They were Chinese on every English admin page."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.utils import translation

from quizzes.tests.factories import question_single

pytestmark = pytest.mark.django_db


def test_the_admin_names_a_question_in_the_pages_language(client, django_user_model) -> None:
    question = question_single("l1-n01")
    question.stem, question.stem_en = "哪个定律限制了加速比？", "Which law bounds the speedup?"
    question.save()
    question.choices.filter(key="a").update(text="阿姆达尔定律", text_en="Amdahl's law")
    client.force_login(django_user_model.objects.create_superuser("root", password="x"))
    url = f"/admin/quizzes/question/{question.pk}/change/"
    pages = {}
    for lang in ("zh-hans", "en"):
        client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
        pages[lang] = client.get(url).content.decode() + client.get(url[:-11]).content.decode()
    assert "l1-n01 · Which law bounds the speedup?" in pages["en"]
    assert "哪个定律" not in pages["en"].split("<textarea")[0]  # the breadcrumb, before the form
    assert "l1-n01 · 哪个定律限制了加速比？" in pages["zh-hans"]
    choice = question.choices.get(key="a")
    with translation.override("en"):
        assert str(choice) == "a. Amdahl's law"
    with translation.override("zh-hans"):
        assert str(choice) == "a. 阿姆达尔定律"
