"""Everything wrong with a question is said at once. The bank's parser raised the first problem it
met, so the staff question form said one error per save: a TA with four mistakes saved four times
to find them. Now each check goes on past the first problem, the form shows every one at its field
in the page's language (the bank's checks running beside the form's own), and what was typed stays
in the form. A bank file's question says all its problems too."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from django.conf import settings

from quizzes.bank import BankError, load_bank_file
from quizzes.models import Question
from quizzes.tests.test_authoring import QUESTION as AUTHORED
from quizzes.tests.test_authoring_english import _field_errors

pytestmark = pytest.mark.django_db

NEW = "/quizzes/staff/bank/new/"
QUESTION = AUTHORED | {"bank_id": "l5-many"}
# Five mistakes in one question: two correct answers of a single choice question, an English
# choice missing, an English explanation missing, no § in the explanation, and no stem (a field
# the form refuses by itself).
MISTAKES = {
    "stem": "",
    "choices": "*带宽\n*算力\n延迟",
    "stem_en": "What limits a kernel left of the ridge point?",
    "choices_en": "Bandwidth\nCompute",
    "explanation": "屋脊点左侧受带宽限制。",
}
SAID = {
    "zh-hans": {
        "stem": ["该字段是必填项。"],
        "choices": ["单选题必须恰有一个正确选项（现有 2 个）"],
        "choices_en": ["选项 3 没有英文（en）"],
        "explanation": ["解析必须注明所属章节（§5.3）"],
        "explanation_en": ["写了英文（题干、解析或选项）时，英文题干和英文解析都要填写。"],
    },
    "en": {
        "stem": ["This field is required."],
        "choices": ["single choice must have exactly one correct choice (has 2)"],
        "choices_en": ["choice 3 has no English text (&#x27;en&#x27;)"],
        "explanation": ["explanation must name its section (§5.3)"],
        "explanation_en": [
            "Once any English is written (stem, explanation or choices), the English stem and the "
            "English explanation are both needed."
        ],
    },
}


def _post(client, data: dict, lang: str = "zh-hans") -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.post(NEW, data)
    assert response.status_code == 400
    return response.content.decode()


@pytest.mark.parametrize("lang", sorted(SAID))
def test_every_mistake_is_said_at_its_field_in_one_save(client_ta, lang: str) -> None:
    page = _post(client_ta, QUESTION | MISTAKES, lang)
    for field, said in SAID[lang].items():
        assert _field_errors(page, field) == said, field
    assert '<ul class="errorlist nonfield">' not in page  # nothing said twice above the form
    # What the TA typed is all still there, to be corrected rather than typed again.
    assert ">\n*带宽\n*算力\n延迟</textarea>" in page and ">\nBandwidth\nCompute</textarea>" in page
    assert 'value="l5-many"' in page and MISTAKES["stem_en"] in page
    assert not Question.objects.exists()


def test_a_taken_id_and_the_bank_checks_are_said_together(client_ta) -> None:
    assert client_ta.post(NEW, QUESTION).status_code == 302
    page = _post(client_ta, QUESTION | {"explanation": "没有章节", "choices": "*带宽\n*带宽"})
    assert _field_errors(page, "bank_id") == ["题目编号“l5-many”已被使用。"]
    assert _field_errors(page, "explanation") == ["解析必须注明所属章节（§5.3）"]
    # One mistake said once: not also "exactly one correct choice (has 2)", the same one twice.
    assert _field_errors(page, "choices") == ["有两个选项内容相同"]


def test_a_repeated_right_choice_is_not_also_counted(client_ta) -> None:
    page = _post(client_ta, QUESTION | {"choices": "*甲\n*甲\n乙"})
    assert _field_errors(page, "choices") == ["有两个选项内容相同"]
    page = _post(client_ta, QUESTION | {"qtype": "multiple", "choices": "甲\n甲\n乙"})
    assert _field_errors(page, "choices") == ["有两个选项内容相同"]


# English stem and explanation written, and none of the four choices in English.
NO_ENGLISH_CHOICES = {
    "choices": "*带宽\n算力\n延迟\n功耗",
    "stem_en": "What limits a kernel left of the ridge point?",
    "explanation_en": "Bandwidth, left of the ridge point (§5.3).",
}


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("zh-hans", "选项 1、2、3、4 没有英文（en）"),
        ("en", "choices 1, 2, 3, 4 have no English text (&#x27;en&#x27;)"),
    ],
)
def test_choices_without_english_are_named_in_one_message(client_ta, lang, said) -> None:
    """Not four lines "选项 1 没有英文（en）" … "选项 4 没有英文（en）"."""
    page = _post(client_ta, QUESTION | NO_ENGLISH_CHOICES, lang)
    assert _field_errors(page, "choices_en") == [said]
    page = _post(client_ta, QUESTION | NO_ENGLISH_CHOICES | {"choices_en": "Bandwidth"}, lang)
    assert _field_errors(page, "choices_en") == [said.replace("1, ", "").replace("1、", "")]


def test_a_wrong_answer_is_said_once_beside_the_other_mistakes(client_ta) -> None:
    """The form's own word for a true/false answer it cannot read, not the bank's YAML one too."""
    tf = QUESTION | {"qtype": "truefalse", "choices": "", "answer": "也许", "points": "0"}
    page = _post(client_ta, tf | {"explanation": "没有章节"})
    assert _field_errors(page, "answer") == ["判断题的答案请写“对”或“错”（也可写 true / false）。"]
    assert _field_errors(page, "explanation") == ["解析必须注明所属章节（§5.3）"]
    assert len(_field_errors(page, "points")) == 1  # the form's own (Django's) words
    numeric = QUESTION | {"qtype": "numeric", "choices": "", "answer": "三", "explanation": "无"}
    page = _post(client_ta, numeric)
    assert len(_field_errors(page, "answer")) == 1
    assert _field_errors(page, "explanation") == ["解析必须注明所属章节（§5.3）"]


def test_a_bank_files_question_says_all_its_problems(tmp_path: Path) -> None:
    question = {
        "id": "l1-many",
        "section": "sec-1-17",
        "type": "single",
        "tag": "memorize",
        "stem": "问题",
        "choices": [{"text": "甲", "correct": True}, {"text": "乙", "correct": True}],
        "explanation": "没有注明出处",
    }
    body = {"lecture": 1, "title": "测试", "questions": [question, question | {"id": "l1-ok"}]}
    path = tmp_path / "lec.yaml"
    path.write_text(yaml.safe_dump(body, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BankError) as refused:
        load_bank_file(path, anchors=None)
    assert str(refused.value).splitlines() == [
        f"lec.yaml：题目 {qid}：{message}"
        for qid in ("l1-many", "l1-ok")
        for message in (
            "解析必须注明所属章节（§1.17）",
            "单选题必须恰有一个正确选项（现有 2 个）",
            "tag 必须是以下之一：recall, understand, compute",
        )
    ]
    assert [(e.question_id, e.key) for e in refused.value.errors][:3] == [
        ("l1-many", "explanation"),
        ("l1-many", "choices"),
        ("l1-many", "tag"),
    ]


def test_a_misspelt_choice_key_is_said_alone(tmp_path: Path) -> None:
    """Not also "exactly one correct choice (has 0)": the misspelt key was that choice's correct."""
    choices = [{"text": "甲", "corect": True}, {"text": "乙"}]
    question = {"id": "l1-typo", "section": "sec-1-17", "type": "single", "tag": "recall"}
    question |= {"stem": "问题", "choices": choices, "explanation": "§1.17"}
    path = tmp_path / "lec.yaml"
    body = {"lecture": 1, "title": "测试", "questions": [question]}
    path.write_text(yaml.safe_dump(body, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BankError) as refused:
        load_bank_file(path, anchors=None)
    assert [e.message for e in refused.value.errors] == [
        "选项 1 含不认识的键（只允许 text、en、correct）"
    ]


def test_an_id_taken_by_a_question_with_a_mistake_is_said_taken(tmp_path: Path) -> None:
    """The first l1-dup fails on its explanation; the second is said a duplicate in the same
    read, not only once the first is fixed. An id that is itself wrong is said wrong, not taken."""
    good = {"id": "l1-dup", "section": "sec-1-17", "type": "truefalse", "tag": "recall"}
    good |= {"stem": "判断", "answer": True, "explanation": "见 §1.17"}
    bad_id = good | {"id": "L1 Dup"}
    questions = [good | {"explanation": "没有注明出处"}, good, bad_id, bad_id]
    body = {"lecture": 1, "title": "测试", "questions": questions}
    path = tmp_path / "lec.yaml"
    path.write_text(yaml.safe_dump(body, allow_unicode=True), encoding="utf-8")
    with pytest.raises(BankError) as refused:
        load_bank_file(path, anchors=None)
    assert [(e.question_id, e.message) for e in refused.value.errors] == [
        ("l1-dup", "解析必须注明所属章节（§1.17）"),
        ("l1-dup", "本文件中题目编号重复"),
        ("L1 Dup", "id 必须匹配 [a-z0-9][a-z0-9-]*（最长 64 个字符）"),
        ("L1 Dup", "id 必须匹配 [a-z0-9][a-z0-9-]*（最长 64 个字符）"),
    ]
