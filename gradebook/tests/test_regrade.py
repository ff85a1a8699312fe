"""Must hold 5: the regrade request workflow end to end over HTTP, and students see only their own."""

from __future__ import annotations

from decimal import Decimal

import pytest

from gradebook.models import Grade, GradeEvent, RegradeRequest

NEW = "/grades/regrades/new/"


@pytest.fixture
def lab(student_a, student_b, make_item, post):
    item = make_item("lab:3", max_points=100, title="矩阵乘法")
    post(student_a, item, 60)
    post(student_b, item, 70)
    return item


def _ask(client, item, message="第 2 个测试用例的容差判错了", ref="testref:123"):
    return client.post(NEW, {"item": item.key, "ref": ref, "message": message})


@pytest.mark.django_db
def test_accept_end_to_end(client_a, client_ta, student_a, ta, lab) -> None:
    form = client_a.get(NEW, {"item": lab.key, "ref": "testref:123"})
    assert form.status_code == 200 and "testref:123" in form.content.decode()
    created = _ask(client_a, lab)
    request = RegradeRequest.objects.get()
    assert created.status_code == 302 and created["Location"] == f"/grades/regrades/{request.pk}/"
    assert (request.student, request.ref, request.status) == (student_a, "testref:123", "open")

    queue = client_ta.get("/grades/staff/regrades/").content.decode()
    assert f"/grades/regrades/{request.pk}/" in queue and "testref:123" in queue

    answer = client_ta.post(
        f"/grades/regrades/{request.pk}/",
        {"decision": "accept", "points": "75", "response": "容差应为 1e-3，已改分"},
    )
    assert answer.status_code == 302
    grade = Grade.objects.get(student=student_a, item=lab)
    assert (grade.points, grade.auto_points) == (Decimal("75.00"), Decimal("60.00"))
    event = GradeEvent.objects.get(action="override")
    assert event.actor == ta and f"regrade #{request.pk}" in event.reason

    outcome = client_a.get(f"/grades/regrades/{request.pk}/").content.decode()
    assert "已改分" in outcome and "容差应为 1e-3，已改分" in outcome and "60 → 75" in outcome
    assert "resolve-form" not in outcome  # the student cannot answer
    assert "容差应为 1e-3" in client_a.get("/grades/").content.decode()


@pytest.mark.django_db
def test_decline_needs_a_reason_and_keeps_the_score(client_a, client_ta, lab) -> None:
    _ask(client_a, lab)
    request = RegradeRequest.objects.get()
    url = f"/grades/regrades/{request.pk}/"
    empty = client_ta.post(url, {"decision": "decline", "response": ""})
    assert empty.status_code == 400
    accept_without_points = client_ta.post(url, {"decision": "accept", "response": "ok"})
    assert accept_without_points.status_code == 400
    assert RegradeRequest.objects.get().status == "open"
    declined = client_ta.post(url, {"decision": "decline", "response": "评分符合说明第 3 条"})
    assert declined.status_code == 302
    request.refresh_from_db()
    assert (request.status, request.old_points, request.new_points) == (
        "declined",
        Decimal("60.00"),
        Decimal("60.00"),
    )
    assert GradeEvent.objects.filter(action="regrade_decline").count() == 1
    page = client_a.get("/grades/regrades/").content.decode()
    assert "已驳回" in page and "评分符合说明第 3 条" in page
    again = client_ta.post(url, {"decision": "accept", "points": "90", "response": "x"})
    assert again.status_code == 409 and "resolve-form" not in again.content.decode()
    assert Grade.objects.get(student=request.student, item=lab).points == Decimal("60.00")


@pytest.mark.django_db
def test_a_student_never_sees_another_students_requests(client_a, client_b, lab) -> None:
    _ask(client_a, lab, message="学生A的私密说明：第 2 题")
    request = RegradeRequest.objects.get()
    assert client_b.get(f"/grades/regrades/{request.pk}/").status_code == 404
    assert "学生A的私密说明" not in client_b.get("/grades/regrades/").content.decode()
    assert client_b.get("/grades/staff/regrades/").status_code == 403
    forged = client_b.post(
        f"/grades/regrades/{request.pk}/", {"decision": "accept", "points": "100", "response": "x"}
    )
    assert forged.status_code == 404
    assert (
        client_a.post(
            f"/grades/regrades/{request.pk}/",
            {"decision": "accept", "points": "100", "response": "x"},
        ).status_code
        == 403
    )
    assert RegradeRequest.objects.get().status == "open"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "data,status",
    [
        ({"item": "lab:3", "message": "  "}, 400),
        ({"item": "lab:3", "message": "x", "ref": "drop table;"}, 400),
        ({"item": "lab:999", "message": "x"}, 404),
    ],
)
def test_bad_requests_are_refused(client_a, lab, data, status) -> None:
    assert client_a.post(NEW, data).status_code == status
    assert RegradeRequest.objects.count() == 0


@pytest.mark.django_db
def test_one_open_request_per_item_and_ref(client_a, lab) -> None:
    assert _ask(client_a, lab).status_code == 302
    duplicate = _ask(client_a, lab)
    assert duplicate.status_code == 400 and "待处理复核申请" in duplicate.content.decode()
    assert _ask(client_a, lab, ref="testref:124").status_code == 302
    assert RegradeRequest.objects.count() == 2


@pytest.mark.django_db
def test_accepting_with_an_impossible_score_changes_nothing(client_a, client_ta, lab) -> None:
    _ask(client_a, lab)
    request = RegradeRequest.objects.get()
    response = client_ta.post(
        f"/grades/regrades/{request.pk}/",
        {"decision": "accept", "points": "150", "response": "满分"},
    )
    assert response.status_code == 400 and "超出 0…" in response.content.decode()
    request.refresh_from_db()
    assert request.status == "open" and not GradeEvent.objects.filter(action="override").exists()


@pytest.mark.django_db
def test_staff_see_the_score_they_decide_on(client_a, client_ta, student_a, lab) -> None:
    """The answer form asked for a new score without the current one, the item's maximum, or a
    way to the work it counts: staff had to find the student's grades page themselves."""
    _ask(client_a, lab)
    request = RegradeRequest.objects.get()
    page = client_ta.get(f"/grades/regrades/{request.pk}/").content.decode()
    current = page.split('id="regrade-current">', 1)[1].split("</dd>", 1)[0]
    assert "<strong>60</strong> / 100" in current
    assert f'href="/grades/staff/students/{student_a.pk}/?item={lab.pk}"' in current
    student_page = client_a.get(f"/grades/regrades/{request.pk}/").content.decode()
    assert "regrade-current" not in student_page  # the student's page stays their request


@pytest.mark.django_db
def test_staff_see_an_overridden_score_with_its_automatic_one(client_a, client_ta, lab) -> None:
    _ask(client_a, lab)
    request = RegradeRequest.objects.get()
    Grade.objects.filter(item=lab, student__username="student_a").update(
        points=Decimal("80"), override_points=Decimal("80"), override_reason="补交"
    )
    page = client_ta.get(f"/grades/regrades/{request.pk}/").content.decode()
    current = page.split('id="regrade-current">', 1)[1].split("</dd>", 1)[0]
    assert "<strong>80</strong> / 100（人工改分；自动评分 60）" in current
