"""Must hold 4: unreleased scores are invisible to students in pages, API and export; release is
audited and only instructors may release."""

from __future__ import annotations

import pytest

from gradebook.models import GradeEvent, GradeItem


@pytest.fixture
def hidden(student_a, make_item, post) -> GradeItem:
    item = make_item("exam:mid", max_points=100, title="期中考试", released=False)
    post(student_a, item, "73.25", source="import")
    visible = make_item("quiz:1", max_points=10, title="测验一")
    post(student_a, visible, "8.5", source="quiz")
    return item


def _student_surfaces(client) -> dict[str, str]:
    return {
        "page": client.get("/grades/").content.decode(),
        "api": client.get("/grades/api/mine").content.decode(),
        "csv": client.get("/grades/mine.csv").content.decode(),
    }


@pytest.mark.django_db
def test_unreleased_score_is_nowhere_for_the_student(client_a, hidden) -> None:
    for name, body in _student_surfaces(client_a).items():
        assert "73.25" not in body and "73.2" not in body, name
        assert "8.5" in body, name  # the released score is there: the surface works
    api = client_a.get("/grades/api/mine").json()
    exam = next(i for i in api["items"] if i["key"] == "exam:mid")
    assert (exam["status"], exam["points"], exam["counted"]) == ("submitted", None, None)
    assert api["total_percent"] == "85.00"  # the hidden exam is not in the total either


@pytest.mark.django_db
def test_release_shows_it_and_is_audited(client_a, client_instructor, instructor, hidden) -> None:
    response = client_instructor.post(
        f"/grades/staff/items/{hidden.pk}/release/", {"released": "1"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200 and 'id="release-control"' in response.content.decode()
    for name, body in _student_surfaces(client_a).items():
        assert "73.25" in body, name
    client_instructor.post(f"/grades/staff/items/{hidden.pk}/release/", {"released": "0"})
    assert "73.25" not in client_a.get("/grades/api/mine").content.decode()
    events = GradeEvent.objects.filter(item=hidden, action__in=["release", "hide"])
    assert list(events.values_list("action", "actor")) == [
        ("release", instructor.pk),
        ("hide", instructor.pk),
    ]


@pytest.mark.django_db
def test_ta_and_students_cannot_release(client_ta, client_a, hidden) -> None:
    url = f"/grades/staff/items/{hidden.pk}/release/"
    assert client_ta.post(url, {"released": "1"}).status_code == 403
    assert client_a.post(url, {"released": "1"}).status_code == 403
    hidden.refresh_from_db()
    assert not hidden.released and not GradeEvent.objects.filter(action="release").exists()
