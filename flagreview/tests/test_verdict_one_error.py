"""A refused restore score has one error saying why: -1 read "确保该值大于或等于0" and also
"恢复分数需要填写分数" though a number was entered. The missing-score error is for an empty box."""

from __future__ import annotations

import pytest

from flagreview.models import FlagVerdict

MISSING = "恢复分数需要填写分数"


@pytest.mark.parametrize(
    "points,says", [("-1", "大于或等于"), ("abc", "数字"), ("11", "超出 0…10.00 的范围")]
)
def test_a_refused_restore_score_is_not_also_called_missing(
    rejected, client_ta, points, says
) -> None:
    url = f"/flags/submissions/{rejected.pk}/verdict/"
    response = client_ta.post(url, {"decision": "restore", "points": points, "reason": "ok"})
    page = response.content.decode()
    assert response.status_code == 400
    assert says in page and MISSING not in page
    assert not FlagVerdict.objects.exists()


@pytest.mark.parametrize("points", ["", "   "])
def test_an_empty_restore_score_is_still_asked_for(rejected, client_ta, points) -> None:
    url = f"/flags/submissions/{rejected.pk}/verdict/"
    response = client_ta.post(url, {"decision": "restore", "points": points, "reason": "ok"})
    assert response.status_code == 400 and MISSING in response.content.decode()
    assert not FlagVerdict.objects.exists()
