"""The staff question form says what to do in its own words, not the bank file's YAML keys: a
single choice question with one line of choices was told "至少需要 2 个选项（choices 列表）", a
numeric one with "三" as its answer "数值题需要数值答案（answer）" ("numeric question needs a
numeric 'answer'"), keys a TA filling in a form never sees."""

from __future__ import annotations

import pytest

from quizzes.tests.test_authoring_english import _field_errors
from quizzes.tests.test_question_errors_at_once import QUESTION, _post

pytestmark = pytest.mark.django_db

CASES = [
    (
        {"choices": "*带宽"},
        "choices",
        {
            "zh-hans": "至少需要 2 个选项：每行写一个，正确项以 * 开头。",
            "en": "At least 2 choices are needed: one a line, the right ones starting with *.",
        },
    ),
    (
        {"qtype": "numeric", "choices": "", "answer": "三"},
        "answer",
        {
            "zh-hans": "数值题的答案请填一个数，如 3.5 或 1e-3。",
            "en": "Write the answer as a number, such as 3.5 or 1e-3.",
        },
    ),
]


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize(("change", "field", "said"), CASES)
def test_the_form_says_what_to_do_not_a_yaml_key(
    client_ta, lang: str, change: dict, field: str, said: dict
) -> None:
    page = _post(client_ta, QUESTION | change, lang)
    assert _field_errors(page, field) == [said[lang]]
    assert "choices 列表" not in page and "answer）" not in page and "&#x27;answer" not in page
