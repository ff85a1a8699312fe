"""The staff grade pages read `?item=` with pdcsite.params.query_id: a superscript digit or a
number past a 64-bit key is no filter at all, never a server error (a fuzz found "²" gave 500s)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

JUNK = ["%C2%B2", "%D9%A3", "99999999999999999999", "-3", "abc"]


@pytest.mark.parametrize("raw", JUNK)
def test_grid_and_its_export_ignore_a_junk_item(client_ta, make_item, raw) -> None:
    make_item("exam:mid", max_points=10)
    assert client_ta.get(f"/grades/staff/?item={raw}").status_code == 200
    assert client_ta.get(f"/grades/staff/export.csv?item={raw}").status_code == 200


@pytest.mark.parametrize("raw", JUNK)
def test_student_page_ignores_a_junk_focus(client_ta, student_a, make_item, raw) -> None:
    make_item("exam:mid", max_points=10)
    page = client_ta.get(f"/grades/staff/students/{student_a.pk}/?item={raw}")
    assert page.status_code == 200


def test_a_real_item_still_focuses_the_student_page(client_ta, student_a, make_item) -> None:
    item = make_item("exam:mid", max_points=10)
    page = client_ta.get(f"/grades/staff/students/{student_a.pk}/?item={item.pk}").content.decode()
    assert f'<option value="{item.pk}" selected>' in page
    assert 'id="override-current"' in page  # and the form shows that item's current score
