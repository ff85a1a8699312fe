"""Regrade requests are limited per student and item in any 24 hours (PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings as django_settings

from gradebook.models import RegradeRequest

NEW = "/grades/regrades/new/"


@pytest.mark.django_db
def test_daily_limit_per_item(client_a, student_a, make_item, settings) -> None:
    settings.PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY = 2
    item, other = make_item("exam:a", max_points=10), make_item("exam:b", max_points=10)
    for n in (1, 2):
        ok = client_a.post(
            NEW, {"item": item.key, "ref": f"testref:{n}", "message": "请复核第 2 个用例的容差"}
        )
        assert ok.status_code == 302
    third = client_a.post(
        NEW, {"item": item.key, "ref": "testref:3", "message": "请复核第 2 个用例的容差"}
    )
    assert third.status_code == 400 and "24 小时内最多提交 2 次" in third.content.decode()
    assert RegradeRequest.objects.filter(item=item).count() == 2
    # Another item has its own allowance; a day later this one has again.
    assert (
        client_a.post(NEW, {"item": other.key, "message": "请复核第 2 个用例的容差"}).status_code
        == 302
    )
    RegradeRequest.objects.update(
        created_at=RegradeRequest.objects.first().created_at - timedelta(days=1, seconds=1)
    )
    again = client_a.post(
        NEW, {"item": item.key, "ref": "testref:3", "message": "请复核第 2 个用例的容差"}
    )
    assert again.status_code == 302


@pytest.mark.django_db
def test_a_limit_of_one_reads_in_the_singular(client_a, make_item, settings) -> None:
    settings.PDC_REGRADE_REQUESTS_PER_ITEM_PER_DAY = 1
    item = make_item("exam:one", max_points=10)
    client_a.cookies[django_settings.LANGUAGE_COOKIE_NAME] = "en"
    assert (
        client_a.post(
            NEW, {"item": item.key, "ref": "testref:1", "message": "请复核第 2 个用例的容差"}
        ).status_code
        == 302
    )
    second = client_a.post(
        NEW, {"item": item.key, "ref": "testref:2", "message": "请复核第 2 个用例的容差"}
    )
    assert second.status_code == 400
    assert "at most 1 regrade request per grade item" in second.content.decode()
