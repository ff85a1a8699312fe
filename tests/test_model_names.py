"""Model names in English: a plural of their own, and singulars that are nouns.

The Chinese msgids of a model's names are shared with other strings (成绩 is also the gradebook's
app name, 提交 a button) and Chinese writes the plural as the singular, so both names carry their
own msgctxt ("model name", "model name, plural"). Before, the English admin listed "Lecture" and
"Submit" where it meant "Lectures" and "Submission". Every model and inline the admin shows has
names of its own: Django's default ("api tokens") is English on the Chinese admin too.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.conf import settings
from django.utils import translation

# English writes these the same in the singular and the plural.
SAME_IN_ENGLISH = {"gradebook.GradebookSettings"}


def _ours(model) -> bool:
    return (settings.BASE_DIR / model._meta.app_label).is_dir()


def _named_models() -> list:
    return [
        model
        for model in apps.get_models()
        if _ours(model) and "verbose_name_plural" in model._meta.original_attrs
    ]


def test_every_model_has_an_english_plural_and_chinese_names_are_unchanged() -> None:
    models = _named_models()
    assert len(models) >= 30
    for model in models:
        meta = model._meta
        with translation.override("en"):
            one, many = str(meta.verbose_name), str(meta.verbose_name_plural)
        assert one.isascii() and many.isascii(), (meta.label, one, many)
        assert (one == many) == (meta.label in SAME_IN_ENGLISH), (meta.label, one, many)
        with translation.override("zh-hans"):
            assert str(meta.verbose_name) == str(meta.verbose_name_plural), meta.label


@pytest.mark.django_db
def test_english_admin_index_lists_models_in_the_plural(client_instructor) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = client_instructor.get("/admin/").content.decode()
    links = set(re.findall(r'<a href="/admin/\w+/\w+/"[^>]*>([^<]+)</a>', page))
    assert {"Lectures", "Submissions", "Grades", "Quizzes"} <= links, links
    assert not links & {"Lecture", "Submit", "Quiz"}, links


def test_every_model_and_inline_in_the_admin_is_named() -> None:
    """Django's default name is English ("api tokens", "choices") on the Chinese admin too."""
    from django.contrib import admin

    unnamed = []
    for model, model_admin in admin.site._registry.items():
        if _ours(model) and "verbose_name_plural" not in model._meta.original_attrs:
            unnamed.append(model._meta.label)
        for inline in model_admin.inlines:
            own = "verbose_name_plural" in inline.model._meta.original_attrs
            if not (own or inline.verbose_name_plural):
                unnamed.append(f"{inline.__name__} in {model._meta.label}")
    assert not unnamed, unnamed


@pytest.mark.django_db
def test_chinese_question_admin_labels_its_choice_rows(admin_client) -> None:
    from quizzes.models import Question

    question = Question.objects.create(
        bank_id="q-1", lecture=1, section="sec-1-1", qtype="single", stem="题干", explanation="解析"
    )
    # A superuser: staff roles have no permissions on Choice, so the admin shows them no rows.
    page = admin_client.get(f"/admin/quizzes/question/{question.pk}/change/").content.decode()
    assert "选项内容" in page and "选项键" in page
    assert not re.search(r">\s*(Choices|Key|Position|Text en)\s*<", page)


# Django's automatic primary key is named "ID" in both languages.
UNNAMED_FIELDS = {"id"}
CJK = re.compile(r"[\u4e00-\u9fff]")


def _unnamed(model) -> list[str]:
    """Fields named by Django's default (the attribute name, in English on Chinese pages) or with
    Chinese left in the English name (a msgid missing from the catalogs)."""
    fields = [f for f in model._meta.get_fields() if f.concrete and f.name not in UNNAMED_FIELDS]
    found = []
    for name, zh, en in _names_in_both(model, fields):
        if not CJK.search(zh) or CJK.search(en):
            found.append(f"{model._meta.label}.{name}: {zh!r} / {en!r}")
    return found


def _names_in_both(model, fields) -> list[tuple[str, str, str]]:
    with translation.override("zh-hans"):
        zh = [str(model._meta.verbose_name)] + [str(f.verbose_name) for f in fields]
    with translation.override("en"):
        en = [str(model._meta.verbose_name)] + [str(f.verbose_name) for f in fields]
    names = ["(model)"] + [f.name for f in fields]
    return list(zip(names, zh, en, strict=True))


def test_every_model_and_field_of_ours_is_named_in_both_languages() -> None:
    """Not only the ones the admin lists: deleting a user or a quiz in the admin lists every related
    row by its model's name ("answer: 12/34" on a Chinese page), and a unique-constraint error names
    the model and its fields ("Choice with this Question and Key already exists")."""
    models = [model for model in apps.get_models() if _ours(model)]
    assert len(models) >= 35
    unnamed = [line for model in models for line in _unnamed(model)]
    assert not unnamed, "\n".join(unnamed)
