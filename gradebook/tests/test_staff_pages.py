"""Staff grid filters, per-item summary and distribution chart, per-student detail with audit."""

from __future__ import annotations

import re
from datetime import timedelta
from decimal import Decimal

import pytest

from accounts.models import Profile
from gradebook.charts import histogram_svg
from gradebook.selectors import histogram
from gradebook.services import excusal_set


@pytest.fixture
def course(student_a, student_b, make_item, post, past_due):
    Profile.objects.filter(user=student_a).update(section="A班")
    Profile.objects.filter(user=student_b).update(section="B班")
    quiz = make_item("quiz:1", max_points=10, title="测验一", due_at=past_due)
    lab = make_item("lab:1", max_points=100, title="实验一", due_at=past_due)
    post(student_a, quiz, 9, submitted_at=past_due - timedelta(hours=1))
    post(student_a, lab, 40, submitted_at=past_due - timedelta(hours=1))
    return {"quiz": quiz, "lab": lab}


def _grid_students(body: str) -> list[str]:
    return re.findall(r'data-student="([^"]+)"', body)


@pytest.mark.django_db
def test_grid_filters_by_section_category_and_item(client_ta, course) -> None:
    everyone = client_ta.get("/grades/staff/").content.decode()
    assert _grid_students(everyone) == ["student_a", "student_b"]
    assert "测验一" in everyone and "实验一" in everyone

    section = client_ta.get("/grades/staff/", {"section": "B班"}).content.decode()
    assert _grid_students(section) == ["student_b"]

    quizzes = client_ta.get("/grades/staff/", {"category": "quiz"}).content.decode()
    table = quizzes.split('id="grid"')[1]
    assert "测验一" in table and "实验一" not in table

    one = client_ta.get("/grades/staff/", {"item": course["lab"].pk}).content.decode()
    table = one.split('id="grid"')[1]
    assert "实验一" in table and "测验一" not in table

    csv_b = client_ta.get("/grades/staff/export.csv", {"section": "B班"}).content.decode()
    assert "student_b" in csv_b and "student_a" not in csv_b


@pytest.mark.django_db
def test_missing_shows_zero_and_counts_in_the_summary(client_ta, course) -> None:
    page = client_ta.get(f"/grades/staff/items/{course['lab'].pk}/").content.decode()
    stat = dict(re.findall(r'data-stat="(\w+)">([^<]*)<', page))
    assert (stat["graded"], stat["missing"], stat["mean"], stat["median"]) == ("1", "1", "40", "40")
    assert '<svg class="histogram"' in page and "40–50%: 1" in page


@pytest.mark.django_db
def test_summary_mean_and_median(client_ta, student_a, student_b, ta, make_item, post) -> None:
    item = make_item("exam:mid", max_points=20)
    post(student_a, item, 5, source="import")
    post(student_b, item, 20, source="import")
    page = client_ta.get(f"/grades/staff/items/{item.pk}/").content.decode()
    stat = dict(re.findall(r'data-stat="(\w+)">([^<]*)<', page))
    assert (stat["graded"], stat["mean"], stat["median"], stat["missing"]) == (
        "2",
        "12.5",
        "12.5",
        "0",
    )


def test_histogram_bins_and_svg() -> None:
    counts = histogram([Decimal(0), Decimal("9.99"), Decimal(10), Decimal(55), Decimal(100)])
    assert counts == [2, 1, 0, 0, 0, 1, 0, 0, 0, 1]
    svg = str(histogram_svg(counts, title="<分布>"))
    assert svg.count("<rect") == 10 and "&lt;分布&gt;" in svg and "<分布>" not in svg


@pytest.mark.django_db
def test_student_detail_shows_actions_history_and_excusal(
    client_ta, client_a, student_a, ta, course
) -> None:
    url = f"/grades/staff/students/{student_a.pk}/excuse/"
    response = client_ta.post(
        url,
        {"excuse-item": course["lab"].pk, "excuse-excused": "1", "excuse-reason": "病假证明"},
    )
    assert response.status_code == 302
    detail = client_ta.get(f"/grades/staff/students/{student_a.pk}/").content.decode()
    assert 'data-action="excuse"' in detail and "病假证明" in detail
    assert detail.count('data-action="record"') == 2
    api = client_a.get("/grades/api/mine").json()
    lab = next(i for i in api["items"] if i["key"] == "lab:1")
    assert lab["status"] == "excused" and api["total_percent"] == "90.00"  # only the quiz counts
    excusal_set(student=student_a, item=course["lab"], actor=ta, excused=False, reason="撤销")
    assert (
        client_a.get("/grades/api/mine").json()["total_percent"] == "58.75"
    )  # (30·90 + 50·40) / 80
