"""Words that mean two things read right in English in each place (tests/test_po_complete.py
keeps one translation per msgid; these are the ones that needed a context to do so)."""

from __future__ import annotations

import pytest
from django import forms
from django.core.exceptions import ValidationError
from django.utils import translation

from flagreview.forms import VerdictForm
from flagreview.models import FlagResponse, FlagVerdict
from gradebook.templatetags.gradebook_tags import status_label
from gradinglab.models import Assignment
from lectures.models import CoursePage
from quizzes.models import Quiz
from similarity.models import SimilarityDecision, SimilarityRun


def _label(model, field: str) -> str:
    return str(model._meta.get_field(field).verbose_name)


def test_english_labels_follow_their_meaning() -> None:
    with translation.override("en"):
        assert _label(FlagResponse, "submission") == "Submission"  # the noun, not "Submit"
        assert translation.gettext("提交") == "Submit"  # the lab page's section and button
        assert _label(Quiz, "description") == "Description"  # not the regrade "Message"
        assert str(Quiz.Kind.GRADED.label) == "Graded quiz"  # one quiz's type
        assert translation.gettext("计分测验") == "Graded quizzes"  # the list's heading
        assert _label(SimilarityRun, "error") == "Error"  # not a wrong answer
        assert _label(Assignment, "problem") == "Problem"  # a lab problem, not a question
        assert status_label("released") == "Released"  # grades released to students
        assert _label(Quiz, "published") == "Published"  # a quiz published to students
        assert _label(FlagVerdict, "decision") == "Verdict"  # a TA's verdict on a flagged result
        assert str(VerdictForm().fields["decision"].label) == "Verdict"
        assert _label(SimilarityDecision, "decision") == "Decision"  # on a similar pair


def test_form_labels_end_in_the_colon_of_their_language() -> None:
    """Django's own zh_Hans catalog gives its label suffix as the ASCII ':' ("名称:")."""
    from gradebook.forms import ExtensionForm

    with translation.override("zh-hans"):
        assert ExtensionForm()["due_at"].label_tag().endswith("新截止时间：</label>")
    with translation.override("en"):
        assert ExtensionForm()["due_at"].label_tag().endswith("New due date:</label>")


def test_no_form_label_holds_a_colon_of_its_own() -> None:
    """Django adds the colon: a label such as "或新建：标识" read "或新建：标识："."""
    import importlib
    import pkgutil

    from django import forms
    from django.conf import settings

    apps = [a for a in settings.INSTALLED_APPS if "." not in a]  # the project's own apps
    for app in apps:
        for mod in pkgutil.walk_packages(importlib.import_module(app).__path__, f"{app}."):
            if mod.name.split(".")[-1].startswith("forms") or mod.name.endswith(".forms"):
                importlib.import_module(mod.name)
    classes, stack = [], [forms.BaseForm]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.split(".")[0] in apps:
                classes.append(sub)
    assert len(classes) > 15  # the walk found the project's forms
    for lang in ("zh-hans", "en"):
        with translation.override(lang):
            labels = {
                f"{cls.__module__}.{cls.__name__}.{name}": str(field.label)
                for cls in classes
                for name, field in cls.base_fields.items()
                if field.label
            }
            colons = {
                where: label for where, label in labels.items() if ":" in label or "：" in label
            }
            assert not colons, (lang, colons)


@pytest.mark.parametrize(
    ("value", "error"),
    [("1.234", "确认小数不超过 2 位。"), ("123.456", "确认总共不超过 4 个数字。")],
)
def test_number_errors_end_in_a_chinese_full_stop(value: str, error: str) -> None:
    """Django's zh_Hans catalog ends these with an ASCII "." (locale/zh_Hans overrides them)."""
    field = forms.DecimalField(max_digits=4, decimal_places=2)
    with translation.override("zh-hans"):
        with pytest.raises(ValidationError) as raised:
            field.clean(value)
        assert raised.value.messages == [error]


@pytest.mark.django_db
def test_a_taken_unique_value_reads_as_a_sentence() -> None:
    """Django's own: "具有 短名 的 课程页面 已存在。", word by word. (A field staff edit says what to
    do in words of its own: quizzes/tests/test_taken_names.py and the like.)"""
    CoursePage.objects.create(slug="map", title="课程地图", body_md="")
    for language, said in (
        ("zh-hans", "已有短名相同的课程页面。"),
        ("en", "Course page with this Slug already exists."),
    ):
        with translation.override(language):
            with pytest.raises(ValidationError) as raised:
                CoursePage(slug="map", title="另一个", body_md="").validate_unique()
            assert raised.value.messages == [said]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("zh-hans", "只能由英文字母、数字、下划线（_）或连字符（-）组成。"),
        ("en", "Enter a valid “slug” consisting of letters, numbers, underscores or hyphens."),
    ],
)
def test_a_bad_slug_says_what_it_may_hold(language: str, said: str) -> None:
    """Django's own Chinese asked for a valid “字段” ("field") under the quiz's 短名 box."""
    with translation.override(language):
        with pytest.raises(ValidationError) as raised:
            forms.SlugField().clean("Bad Slug!")
        assert raised.value.messages == [said]
