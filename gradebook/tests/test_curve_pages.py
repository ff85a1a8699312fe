"""An item's curve through HTTP and the real database: set, change and remove it on the item's staff
page (each audited with who, when and the reason; removal restores the uncurved scores), preview it
without saving, refuse bad input with the form as typed, refuse those without the permission to
change grades; and the curved score on the student's page, the staff pages, the CSV exports and
the API, over an override and beside an excusal."""

from __future__ import annotations

import csv
import html
import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth.models import Group, Permission

from gradebook.models import GradeEvent, GradeItem
from gradebook.services import excusal_set, grade_override, regrade_request_create


def _url(item: GradeItem) -> str:
    return f"/grades/staff/items/{item.pk}/curve/"


def _curve(client, item, do="save", kind="add", value="5", reason="期中太难"):
    data = {"do": do, "curve-kind": kind, "curve-value": value, "curve-reason": reason}
    return client.post(_url(item), data | {"curve-loaded": loaded_curve(client, item)})


def loaded_curve(client, item: GradeItem) -> str:
    """The curve the item's page is loaded with, as its form carries it back (what a browser
    posts); "" where the page shows none or is refused."""
    page = client.get(f"/grades/staff/items/{item.pk}/").content.decode()
    found = re.search(r'name="curve-loaded" value="([^"]*)"', page)
    return html.unescape(found[1]) if found else ""


@pytest.fixture
def quiz(make_item, post, student_a, student_b, past_due) -> GradeItem:
    """A 100-point quiz: student_a 60, student_b 97 (both on time)."""
    item = make_item("quiz:mid", max_points=100, due_at=past_due)
    post(student_a, item, 60, submitted_at=past_due)
    post(student_b, item, 97, submitted_at=past_due)
    return item


def _counted(client, item) -> dict[str, str]:
    return {row["username"]: row["counted"] for row in _item_rows(client, item)}


def _item_rows(client, item) -> list[dict[str, str]]:
    body = client.get(f"/grades/staff/items/{item.pk}/export.csv").content.decode()
    return list(csv.DictReader(io.StringIO(body.lstrip("\ufeff"))))


@pytest.mark.django_db
def test_set_change_remove_on_the_item_page(client_ta, ta, quiz) -> None:
    """Each through the page is audited with its actor (the rows' words: test_curve_audit) and
    listed in the item's curve history; removing it restores the uncurved scores."""
    assert _curve(client_ta, quiz).status_code == 302
    assert _counted(client_ta, quiz) == {"student_a": "65.00", "student_b": "100.00"}
    page = client_ta.get(f"/grades/staff/items/{quiz.pk}/").content.decode()
    assert 'name="curve-value" value="5"' in page  # the curve in force, as typed
    assert _curve(client_ta, quiz, kind="scale", value="1.1", reason="改为系数").status_code == 302
    assert _counted(client_ta, quiz) == {"student_a": "66.00", "student_b": "100.00"}
    response = _curve(client_ta, quiz, do="remove", kind="", value="", reason="已补考")
    assert response.status_code == 302
    assert _counted(client_ta, quiz) == {"student_a": "60.00", "student_b": "97.00"}
    events = GradeEvent.objects.filter(item=quiz, action__startswith="curve_")
    assert [(e.action, e.actor) for e in events] == [
        ("curve_set", ta),
        ("curve_change", ta),
        ("curve_remove", ta),
    ]
    page = client_ta.get(f"/grades/staff/items/{quiz.pk}/").content.decode()
    assert page.count('data-action="curve_') == 3 and "本项没有曲线。" in page
    assert "撤销曲线 ×1.1；已补考" in page


@pytest.mark.django_db
def test_preview_shows_mean_before_and_after_and_saves_nothing(client_ta, quiz) -> None:
    response = _curve(client_ta, quiz, do="preview", reason="")
    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="curve-preview"' in page and "78.5 → 82.5" in page  # mean (60+97)/2 → (65+100)/2
    assert 'value="5"' in page  # the form as typed
    quiz.refresh_from_db()
    assert quiz.curve is None and not GradeEvent.objects.filter(action="curve_set").exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("kind", "value", "reason", "error"),
    [
        ("scale", "-1.1", "x", "系数必须大于 0，且不超过 10。"),
        ("scale", "0", "x", "系数必须大于 0，且不超过 10。"),
        ("add", "abc", "x", "曲线数值“abc”不是数字。"),
        ("add", "101", "x", "加分必须在 -100.00…100.00 之间。"),
        ("add", "1.234", "x", "小数最多两位。"),
        ("", "5", "x", "请选择曲线方式：加分或乘以系数。"),
        ("add", "5", "  ", "设置或撤销曲线需要填写原因。"),
    ],
)
def test_bad_input_is_refused_with_the_form_as_typed(
    client_ta, quiz, kind, value, reason, error
) -> None:
    response = _curve(client_ta, quiz, kind=kind, value=value, reason=reason)
    page = response.content.decode()
    assert response.status_code == 400 and error in page
    assert f'value="{value}"' in page  # nothing typed is lost
    quiz.refresh_from_db()
    assert quiz.curve is None and not GradeEvent.objects.filter(action="curve_set").exists()


@pytest.mark.django_db
def test_bad_input_is_said_in_english_too(client_ta, quiz) -> None:
    client_ta.cookies["django_language"] = "en"
    page = _curve(client_ta, quiz, kind="scale", value="-2").content.decode()
    assert "The factor must be greater than 0 and at most 10." in page


@pytest.mark.django_db
def test_removing_needs_a_reason(client_ta, quiz) -> None:
    assert _curve(client_ta, quiz).status_code == 302
    response = _curve(client_ta, quiz, do="remove", reason="")
    assert (
        response.status_code == 400 and "设置或撤销曲线需要填写原因。" in response.content.decode()
    )
    quiz.refresh_from_db()
    assert quiz.curve is not None


@pytest.mark.django_db
def test_a_student_and_staff_without_change_grade_are_refused(client_a, client_ta, quiz) -> None:
    assert _curve(client_a, quiz).status_code == 403
    item_page = f"/grades/staff/items/{quiz.pk}/"
    assert 'id="curve-form"' in client_ta.get(item_page).content.decode()
    perm = Permission.objects.get(content_type__app_label="gradebook", codename="change_grade")
    Group.objects.get(name="ta").permissions.remove(perm)
    assert _curve(client_ta, quiz).status_code == 403
    assert _curve(client_ta, quiz, do="preview").status_code == 403
    assert 'id="curve-form"' not in client_ta.get(item_page).content.decode()
    quiz.refresh_from_db()
    assert quiz.curve is None and not GradeEvent.objects.filter(action="curve_set").exists()


@pytest.mark.django_db
def test_student_page_csv_and_api_show_the_raw_score_and_the_curve(
    client_a, client_ta, quiz
) -> None:
    _curve(client_ta, quiz)
    page = client_a.get("/grades/").content.decode()
    row = page.split(f'data-key="{quiz.key}"')[1].split("</tr>")[0]
    assert ">60<" in row and ">65" in row and "曲线 +5" in row
    assert 'id="course-total">65%' in page
    mine = list(csv.reader(io.StringIO(client_a.get("/grades/mine.csv").content.decode())))
    assert mine[1][6:9] == ["60.00", "0", "65.00"] and "曲线 +5" in mine[1][9]
    api = client_a.get("/grades/api/mine").json()
    assert api["items"][0]["curve"] == "+5" and api["items"][0]["counted"] == "65.00"
    assert api["total_percent"] == "65.00"
    client_a.cookies["django_language"] = "en"
    assert "curve +5" in client_a.get("/grades/").content.decode()


@pytest.mark.django_db
def test_staff_pages_and_the_grid_csv_have_the_curved_score(client_ta, student_a, quiz) -> None:
    _curve(client_ta, quiz, kind="scale", value="1.1")
    grid = client_ta.get("/grades/staff/export.csv").content.decode().lstrip("\ufeff")
    rows = {r["username"]: r for r in csv.DictReader(io.StringIO(grid))}
    assert rows["student_a"]["quiz:mid"] == "66.00" and rows["student_b"]["quiz:mid"] == "100.00"
    page = client_ta.get(f"/grades/staff/students/{student_a.pk}/").content.decode()
    assert "66" in page and "曲线 ×1.1" in page
    item_page = client_ta.get(f"/grades/staff/items/{quiz.pk}/").content.decode()
    assert 'data-stat="mean">83<' in item_page  # (66 + 100) / 2


@pytest.mark.django_db
def test_an_override_is_curved_and_an_excusal_stays_excused(
    client_ta, ta, student_a, student_b, quiz
) -> None:
    """An override corrects one student's raw score; the curve every student gets applies on top
    of it (calc.py's order). An excused student stays out of the curve and of the totals."""
    grade_override(student=student_a, item=quiz, points=Decimal(70), actor=ta, reason="复核")
    excusal_set(student=student_b, item=quiz, actor=ta, excused=True, reason="病假")
    _curve(client_ta, quiz)
    counted = _counted(client_ta, quiz)
    assert counted == {"student_a": "75.00", "student_b": ""}
    assert [r["curve"] for r in _item_rows(client_ta, quiz)] == ["+5", ""]
    form = client_ta.get(f"/grades/staff/students/{student_a.pk}/?item={quiz.pk}").content.decode()
    assert 'id="override-curve"' in form and "本项有曲线 +5" in form  # said before overriding


@pytest.mark.django_db
@pytest.mark.parametrize("do", ["preview", "save"])
@pytest.mark.parametrize(
    ("kind", "value", "error"),
    [
        ("add", "1e999999999", "加分必须在 -100.00…100.00 之间。"),
        ("add", "-1E+999999999", "加分必须在 -100.00…100.00 之间。"),
        ("add", "1e-999999999", "小数最多两位。"),
        ("scale", "1e999999999", "系数必须大于 0，且不超过 10。"),
        ("scale", "1e-999999999", "小数最多三位。"),
    ],
)
def test_absurd_numbers_are_a_400_at_the_field(client_ta, quiz, do, kind, value, error) -> None:
    """Exponents past the decimal context's limits were an Overflow (HTTP 500)."""
    response = _curve(client_ta, quiz, do=do, kind=kind, value=value)
    page = response.content.decode()
    assert response.status_code == 400 and error in page
    quiz.refresh_from_db()
    assert quiz.curve is None and not GradeEvent.objects.filter(action="curve_set").exists()


@pytest.mark.django_db
def test_an_add_up_to_the_largest_max_points_fits_the_column(client_ta, make_item) -> None:
    """max_points allows 999999.99 and an add may be up to ±max points: the column must hold it."""
    item = make_item("exam:big", max_points=999999)
    assert _curve(client_ta, item, value="-999999.00").status_code == 302
    item.refresh_from_db()
    assert item.curve_value == Decimal("-999999")
    assert _curve(client_ta, item, value="200000.5").status_code == 302
    item.refresh_from_db()
    assert item.curve_value == Decimal("200000.5")


@pytest.mark.django_db
def test_the_regrade_answer_form_says_the_curve_applies_too(client_ta, student_a, quiz) -> None:
    """Accepting a regrade is an override, which the curve lifts like any other score."""
    asked = regrade_request_create(student=student_a, item=quiz, message="第 3 题")
    url = f"/grades/regrades/{asked.pk}/"
    assert 'id="regrade-curve"' not in client_ta.get(url).content.decode()  # no curve: no word
    _curve(client_ta, quiz)
    page = client_ta.get(url).content.decode()
    assert 'id="regrade-curve"' in page and 'id="resolve-form"' in page
    assert "本项有曲线 +5：人工改分的分数同样按曲线调整（在迟交扣分之后）。" in page
    client_ta.cookies["django_language"] = "en"
    assert "This item has a curve of +5" in client_ta.get(url).content.decode()


@pytest.mark.django_db
def test_the_api_says_no_curve_points_where_it_says_no_curve(
    client_ta, ta, student_a, make_item, past_due
) -> None:
    """A missing item and an excused one: the curve moved nothing, so both fields are null."""
    missing = make_item("quiz:missing", max_points=10, due_at=past_due)
    excused = make_item("quiz:excused", max_points=10, due_at=past_due)
    excusal_set(student=student_a, item=excused, actor=ta, excused=True, reason="病假")
    for item in (missing, excused):
        assert _curve(client_ta, item).status_code == 302
    client_ta.force_login(student_a)
    rows = {i["key"]: i for i in client_ta.get("/grades/api/mine").json()["items"]}
    for key in ("quiz:missing", "quiz:excused"):
        assert (rows[key]["curve"], rows[key]["curve_points"]) == (None, None)


@pytest.mark.django_db
def test_removing_when_there_is_no_curve_says_so(client_ta, quiz) -> None:
    response = _curve(client_ta, quiz, do="remove", kind="", value="", reason="撤销")
    assert response.status_code == 302
    page = client_ta.get(response["Location"]).content.decode()
    assert "本项没有曲线，无需撤销。" in page and "已撤销曲线" not in page
    assert not GradeEvent.objects.filter(item=quiz, action="curve_remove").exists()
    client_ta.cookies["django_language"] = "en"
    response = _curve(client_ta, quiz, do="remove", kind="", value="", reason="undo")
    assert (
        "This item has no curve to remove." in client_ta.get(response["Location"]).content.decode()
    )
