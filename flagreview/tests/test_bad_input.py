"""Bad input on the response and verdict forms: a form error (4xx), nothing stored, never a 500.
(One rejected result per test, every bad input posted against it: the setup is the slow part.)"""

from __future__ import annotations

from flagreview.models import RESPONSE_MAX_CHARS, FlagResponse, FlagVerdict
from gradebook.models import GradeEvent

BAD_RESPONSES = [
    ("", "必填"),
    ("   \n ", "必填"),
    ("x" * (RESPONSE_MAX_CHARS + 1), "不超过 2000"),
]
BAD_VERDICTS = [
    ({"decision": "restore", "reason": "ok"}, "恢复分数需要填写分数"),
    ({"decision": "restore", "points": "11", "reason": "ok"}, "超出 0…10.00 的范围"),
    ({"decision": "restore", "points": "-1", "reason": "ok"}, "大于或等于"),
    ({"decision": "restore", "points": "abc", "reason": "ok"}, "数字"),
    ({"decision": "keep", "reason": "  "}, "必填"),
    ({"decision": "delete", "reason": "x"}, "有效的选项"),
    ({"decision": "keep", "reason": "x" * 501}, "不超过 500"),
]


def test_bad_response_is_a_form_error(rejected, client_a) -> None:
    for text, message in BAD_RESPONSES:
        response = client_a.post(f"/flags/submissions/{rejected.pk}/respond/", {"text": text})
        page = response.content.decode()
        assert response.status_code == 400, text
        assert message in page and 'id="response-form"' in page, text
    assert not FlagResponse.objects.exists()


def test_bad_verdict_is_a_form_error(rejected, client_ta) -> None:
    for data, message in BAD_VERDICTS:
        response = client_ta.post(f"/flags/submissions/{rejected.pk}/verdict/", data)
        assert response.status_code == 400, data
        assert message in response.content.decode(), data
    assert not FlagVerdict.objects.exists()
    assert not GradeEvent.objects.filter(action__in=["sub_override", "flag_keep"]).exists()
