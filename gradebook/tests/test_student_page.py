"""我的成绩 shows the penalty applied, grace days spent and left, dropped items and category weights."""

from __future__ import annotations

from datetime import timedelta

import pytest

from gradebook.models import Category, GradebookSettings

GRACE = {"late_policy": "grace", "late_penalty_per_day": 25}


@pytest.mark.django_db
def test_grace_days_penalty_and_drop_are_shown(
    client_a, student_a, make_item, post, past_due
) -> None:
    GradebookSettings.objects.update_or_create(pk=1, defaults={"grace_days": 3})
    # A transaction=True test earlier in this xdist worker flushes migration 0002's rows (the
    # defaults then apply with no rows): put them back as the migration writes them.
    for position, (key, title, weight) in enumerate(Category.DEFAULTS):
        Category.objects.get_or_create(
            key=key, defaults={"title": title, "weight": weight, "position": position}
        )
    Category.objects.filter(key="quiz").update(drop_lowest=1)
    lab1 = make_item("lab:1", max_points=100, due_at=past_due, **GRACE)
    lab2 = make_item("lab:2", max_points=100, due_at=past_due + timedelta(hours=1), **GRACE)
    post(student_a, lab1, 80, submitted_at=past_due + timedelta(hours=40))  # 2 days, both covered
    post(student_a, lab2, 80, submitted_at=past_due + timedelta(hours=50))  # 3 days: 1 covered
    for n, points in ((1, 2), (2, 9)):
        quiz = make_item(f"quiz:{n}", due_at=past_due, title=f"第 {n} 次小测")
        post(student_a, quiz, points, source="quiz")

    page = client_a.get("/grades/").content.decode()
    assert "宽限天数：已用 3 / 共 3，剩余 0" in page
    assert "迟 2 天，扣 0%（用宽限 2 天）" in page
    assert "迟 3 天，扣 50%（用宽限 1 天）" in page
    assert "已去掉最低" in page  # quiz:1 (2/10) is dropped
    # The category table names the dropped item by its title: it showed the key "quiz:1".
    totals = page.split('id="category-totals"', 1)[1].split("</table>", 1)[0]
    quiz_row = totals.split('data-category="quiz"', 1)[1].split("</tr>", 1)[0]
    assert (
        "quiz:1" not in totals and '<span lang="zh-CN">第 1 次小测</span></span></td>' in quiz_row
    )
    api = client_a.get("/grades/api/mine").json()
    counted = {i["key"]: (i["counted"], i["dropped"]) for i in api["items"]}
    assert counted == {
        "lab:1": ("80.00", False),
        "lab:2": ("40.00", False),
        "quiz:1": ("2.00", True),
        "quiz:2": ("9.00", False),
    }
    assert api["grace_days"] == {"budget": 3, "used": 3}
    weights = {c["key"]: (c["weight"], c["percent"]) for c in api["categories"]}
    assert weights["quiz"] == ("30.00", "90.00") and weights["lab"] == ("50.00", "60.00")
    assert api["total_percent"] == "71.25"  # (30·90 + 50·60) / 80
