"""A score typed into a staff form gets one error that says what is wrong with it.

Before: accepting a regrade with "-5" or "abc" showed the field's error *and* "改分需要填写新分数"
(the value was there), and "1e308" read "分数“1E+308”不是数字" (it is a number, too large to keep)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from gradebook.models import GradeEvent, RegradeRequest

pytestmark = pytest.mark.django_db


@pytest.fixture
def request_url(client_a, student_a, make_item, post) -> str:
    item = make_item("lab:9", max_points=100, title="归约")
    post(student_a, item, 60)
    response = client_a.post(
        "/grades/regrades/new/",
        {"item": item.key, "ref": "testref:9", "message": "请复核第 2 个用例的容差"},
    )
    assert response.status_code == 302
    return f"/grades/regrades/{RegradeRequest.objects.get().pk}/"


def _errors(page: bytes) -> list[str]:
    """Every error shown: the field lists' items and the page's own error notes."""
    text = unescape(page.decode())
    lists = re.findall(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', text, re.S)
    return [
        re.sub(r"<[^>]+>", "", li).strip()
        for ul in lists
        for li in re.findall(r"<li>(.*?)</li>", ul, re.S)
    ]


@pytest.mark.parametrize(
    ("points", "says"),
    [
        ("-5", "大于或等于0"),
        ("abc", "输入一个数字"),
        ("1e308", "超出 0…100.00 的范围"),
        ("123456789", "超出 0…100.00 的范围"),
    ],
)
def test_a_bad_regrade_score_has_one_error_saying_why(client_ta, request_url, points, says) -> None:
    response = client_ta.post(
        request_url, {"decision": "accept", "points": points, "response": "改"}
    )
    assert response.status_code == 400
    errors = _errors(response.content)
    assert len(errors) == 1 and says in errors[0], errors
    assert "改分需要填写新分数" not in response.content.decode()
    assert RegradeRequest.objects.get().status == "open"
    assert not GradeEvent.objects.filter(action="override").exists()


def test_a_missing_regrade_score_is_still_asked_for(client_ta, request_url) -> None:
    response = client_ta.post(request_url, {"decision": "accept", "points": "", "response": "改"})
    assert response.status_code == 400
    assert _errors(response.content) == ["改分需要填写新分数。"]


def test_a_huge_override_score_is_out_of_range_not_a_non_number(
    client_ta, student_a, make_item
) -> None:
    item = make_item("lab:8", max_points=100, title="扫描")
    response = client_ta.post(
        f"/grades/staff/students/{student_a.pk}/override/",
        {
            "action": "override",
            "override-item": item.pk,
            "override-points": "1e308",
            "override-reason": "测试",
        },
    )
    assert response.status_code == 400
    assert "超出 0…100.00 的范围" in response.content.decode()
    assert "不是数字" not in response.content.decode()
    assert not GradeEvent.objects.exists()
