"""A question written on the staff pages can have its English version (stem, choices, explanation,
unit), as a bank file's can: English pages show it in English. It had no English fields, so a
staff-written question was Chinese on every English page. The bank's checks answer in the
reader's language, next to the field at fault (they were English sentences about YAML keys, on
Chinese pages, above the form)."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.utils import translation

from quizzes.bank import load_bank_file
from quizzes.models import Question
from quizzes.selectors import questions_as_seen
from quizzes.tests.factories import quiz_with
from quizzes.tests.test_authoring import QUESTION as AUTHORED

pytestmark = pytest.mark.django_db

NEW = "/quizzes/staff/bank/new/"
QUESTION = AUTHORED | {"bank_id": "l5-en01"}
ENGLISH = {
    "stem_en": "What limits a kernel left of the ridge point?",
    "choices_en": "Bandwidth\n*Compute\nLatency",  # a * here is ignored: the Chinese lines say
    "explanation_en": "Left of the ridge point, bandwidth limits it (§5.3).",
}


def _post(client, data: dict, lang: str = "zh-hans"):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    return client.post(NEW, data)


def _field_errors(page: str, field: str) -> list[str]:
    """The error list Django renders right before the field's own input."""
    block = re.search(rf'<ul class="errorlist" id="id_{field}_error">(.*?)</ul>', page, re.S)
    return re.findall(r"<li>(.*?)</li>", block.group(1)) if block else []


def test_a_question_written_with_english_shows_in_english(client_ta, tmp_path) -> None:
    assert _post(client_ta, QUESTION | ENGLISH).status_code == 302
    question = Question.objects.get(bank_id="l5-en01")
    assert question.stem_en == ENGLISH["stem_en"] and question.explanation_en.endswith("(§5.3).")
    by_text = dict(question.choices.values_list("text", "text_en"))
    assert by_text == {"带宽": "Bandwidth", "算力": "Compute", "延迟": "Latency"}
    assert question.choices.get(correct=True).text == "带宽"
    quiz = quiz_with([question])
    with translation.override("en"):
        (view,) = questions_as_seen(quiz, 1, [question.pk])
    assert view.stem == ENGLISH["stem_en"] and {c.text for c in view.choices} == {
        "Bandwidth",
        "Compute",
        "Latency",
    }
    export = client_ta.get("/quizzes/staff/bank/lecture5-staff.yaml").content
    (tmp_path / "l5.yaml").write_bytes(export)
    (spec,) = load_bank_file(tmp_path / "l5.yaml", anchors=None).questions
    assert spec.stem_en == ENGLISH["stem_en"] and [c.text_en for c in spec.choices] == [
        "Bandwidth",
        "Compute",
        "Latency",
    ]


def test_english_is_all_or_nothing_and_the_error_stands_at_its_field(client_ta) -> None:
    two_lines = ENGLISH | {"choices_en": "Bandwidth\nCompute"}
    page = _post(client_ta, QUESTION | two_lines).content.decode()
    assert _field_errors(page, "choices_en") == ["选项 3 没有英文（en）"]
    page = _post(client_ta, QUESTION | ENGLISH | {"choices_en": "a\nb\nc\nd"}).content.decode()
    assert _field_errors(page, "choices_en") == ["英文选项有 4 行，比中文选项（3 行）多。"]
    no_section = ENGLISH | {"explanation_en": "Bandwidth limits it."}
    page = _post(client_ta, QUESTION | no_section, "en").content.decode()
    assert _field_errors(page, "explanation_en") == [
        "explanation_en must name its section (§) like the Chinese one"
    ]
    assert not Question.objects.exists()


@pytest.mark.parametrize(
    ("change", "field", "chinese"),
    [
        ({"explanation": "没有章节"}, "explanation", "解析必须注明所属章节（§5.3）"),
        ({"choices": "*带宽\n*算力"}, "choices", "单选题必须恰有一个正确选项（现有 2 个）"),
        ({"choices": "*带宽\n带宽"}, "choices", "有两个选项内容相同"),
    ],
)
def test_bank_checks_speak_the_pages_language_at_the_field(
    client_ta, change: dict, field: str, chinese: str
) -> None:
    response = _post(client_ta, QUESTION | change)
    assert response.status_code == 400
    assert _field_errors(response.content.decode(), field) == [chinese]


def test_a_taken_id_is_said_at_the_id(client_ta) -> None:
    assert _post(client_ta, QUESTION).status_code == 302
    page = _post(client_ta, QUESTION | {"stem": "另一道题？"}).content.decode()
    assert _field_errors(page, "bank_id") == ["题目编号“l5-en01”已被使用。"]


def test_each_version_says_its_language(client_ta) -> None:
    """The inputs of a field and its English twin carry lang, so the Chinese text in an English
    page's form (and the reverse) is read in its own language."""
    page = client_ta.get(NEW).content.decode()
    for name, lang in (("stem", "zh-CN"), ("stem_en", "en"), ("choices_en", "en")):
        tag = re.search(rf'<textarea [^>]*name="{name}"[^>]*>', page).group(0)
        assert f'lang="{lang}"' in tag, tag
    settings_page = client_ta.get("/quizzes/staff/").content.decode()
    for name, lang in (("title", "zh-CN"), ("title_en", "en"), ("description", "zh-CN")):
        tag = re.search(rf'<(?:input|textarea) [^>]*name="{name}"[^>]*>', settings_page).group(0)
        assert f'lang="{lang}"' in tag, tag


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_missing_english_explanation_is_said_in_words_not_its_yaml_key(client_ta, lang) -> None:
    """The form said "“explanation_en”必须是非空字符串", in English too."""
    client_ta.cookies["django_language"] = lang
    response = client_ta.post(
        "/quizzes/staff/bank/new/", QUESTION | {"stem_en": "What bounds the left side?"}
    )
    page = response.content.decode()
    assert response.status_code == 400
    assert "“explanation_en”" not in page and "&#x27;explanation_en&#x27;" not in page
    wanted = {"zh-hans": "英文题干和英文解析都要填写", "en": "the English stem and the English"}
    assert wanted[lang] in page
