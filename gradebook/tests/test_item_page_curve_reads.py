"""An item's staff page reads its curve history once: the history it lists also gives the version
the curve form is loaded over (selectors.curve_version), which read the same events again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from gradebook.selectors import curve_version
from gradebook.services import grade_item_curve_set
from gradebook.tests.test_curve_pages import loaded_curve

pytestmark = pytest.mark.django_db


def _curve_event_reads(queries: list[dict]) -> list[str]:
    return [q["sql"] for q in queries if "curve_" in q["sql"] and "gradeevent" in q["sql"]]


def test_the_item_page_reads_curve_events_once(client_ta, ta, make_item, post, student_a) -> None:
    item = make_item("quiz:mid", max_points=100)
    post(student_a, item, 60)
    grade_item_curve_set(item=item, kind="add", value=5, actor=ta, reason="期中太难")
    grade_item_curve_set(item=item, kind="add", value=6, actor=ta, reason="再加一分")
    item.refresh_from_db()
    with CaptureQueriesContext(connection) as ctx:
        page = client_ta.get(f"/grades/staff/items/{item.pk}/")
    assert page.status_code == 200
    assert len(_curve_event_reads(ctx.captured_queries)) == 1, _curve_event_reads(
        ctx.captured_queries
    )
    assert page.content.decode().count('<li data-action="curve_') == 2
    assert loaded_curve(client_ta, item) == curve_version(item)  # the same version as read alone
