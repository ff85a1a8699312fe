"""Two staff on an item's page at once (G6a): A saves a curve, then B, whose page was loaded
before A saved, saves or removes another. B's write is refused (409) instead of silently
overwriting A's: the message says the curve B's page showed and the one in force now, in the
page's language, and keeps what B typed; submitting again after that refusal is deliberate and
goes through. The check is the service's, made under the item's row lock, so it holds for
concurrent writers too (PostgreSQL)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from gradebook.models import GradeEvent, GradeItem
from gradebook.selectors import curve_version
from gradebook.services import CurveConflict, grade_item_curve_remove, grade_item_curve_set
from gradebook.tests.test_curve_pages import loaded_curve


@pytest.fixture
def quiz(make_item, post, student_a) -> GradeItem:
    item = make_item("quiz:mid", max_points=100)
    post(student_a, item, 60)
    return item


def _post(client, item, loaded: str, do="save", kind="add", value="5", reason="期中太难"):
    data = {"do": do, "curve-kind": kind, "curve-value": value, "curve-reason": reason}
    return client.post(f"/grades/staff/items/{item.pk}/curve/", data | {"curve-loaded": loaded})


def _curve_actions(item: GradeItem) -> list[str]:
    return list(
        GradeEvent.objects.filter(item=item, action__startswith="curve_").values_list(
            "action", flat=True
        )
    )


@pytest.mark.django_db
def test_a_save_over_a_curve_saved_since_the_page_loaded_is_refused(
    client_ta, client_instructor, quiz
) -> None:
    a_loaded, b_loaded = loaded_curve(client_ta, quiz), loaded_curve(client_instructor, quiz)
    assert a_loaded == b_loaded == "#0"  # no curve, no curve event yet
    assert _post(client_ta, quiz, a_loaded).status_code == 302  # A: +5
    response = _post(client_instructor, quiz, b_loaded, kind="scale", value="1.2", reason="B 的")
    page = response.content.decode()
    assert response.status_code == 409
    assert "曲线已被他人修改（你打开本页时：无曲线；现在：+5）。" in page
    assert 'name="curve-value" value="1.2"' in page and "B 的</textarea>" in page  # as B typed
    quiz.refresh_from_db()
    assert str(quiz.curve) == "+5" and _curve_actions(quiz) == ["curve_set"]
    # B has now seen +5: the refused form carries it, and submitting it again overwrites on purpose.
    seen = curve_version(quiz)
    assert seen.startswith("+5#") and f'name="curve-loaded" value="{seen}"' in page
    assert _post(client_instructor, quiz, seen, kind="scale", value="1.2").status_code == 302
    quiz.refresh_from_db()
    assert str(quiz.curve) == "×1.2" and _curve_actions(quiz) == ["curve_set", "curve_change"]


@pytest.mark.django_db
def test_a_removal_over_a_curve_changed_since_is_refused(
    client_ta, client_instructor, ta, quiz
) -> None:
    assert _post(client_ta, quiz, "#0").status_code == 302
    a_loaded = loaded_curve(client_ta, quiz)
    quiz.refresh_from_db()
    assert a_loaded == curve_version(quiz) and a_loaded.startswith("+5#")
    assert _post(client_instructor, quiz, a_loaded, kind="scale", value="1.1").status_code == 302
    response = _post(client_ta, quiz, a_loaded, do="remove", reason="已补考")
    assert response.status_code == 409
    assert "你打开本页时：+5；现在：×1.1" in response.content.decode()
    quiz.refresh_from_db()
    assert str(quiz.curve) == "×1.1" and "curve_remove" not in _curve_actions(quiz)
    # Removed by B meanwhile: A's removal of the +5 A saw is refused too, saying there is none.
    grade_item_curve_remove(item=quiz, actor=ta, reason="B 撤销")
    response = _post(client_ta, quiz, a_loaded, do="remove", reason="已补考")
    assert response.status_code == 409 and "现在：无曲线" in response.content.decode()


@pytest.mark.django_db
def test_the_refusal_in_english(client_ta, client_instructor, quiz) -> None:
    assert _post(client_ta, quiz, "#0", kind="add", value="-2").status_code == 302
    client_instructor.cookies["django_language"] = "en"
    page = _post(client_instructor, quiz, "#0", kind="scale", value="1.2").content.decode()
    assert (
        "The curve has been changed by someone else (when you loaded this page: no curve; "
        "now: −2). What you typed is kept below; check it and submit again." in page
    )


@pytest.mark.django_db
def test_the_service_refuses_and_callers_without_a_page_are_not_checked(ta, quiz) -> None:
    grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="x", loaded="#0")
    with pytest.raises(CurveConflict) as refused:
        grade_item_curve_set(item=quiz, kind="add", value="7", actor=ta, reason="y", loaded="#0")
    quiz.refresh_from_db()
    assert str(refused.value.current) == "+5" and refused.value.version == curve_version(quiz)
    with pytest.raises(CurveConflict):
        grade_item_curve_remove(item=quiz, actor=ta, reason="y", loaded="+5")  # the curve alone
    loaded = curve_version(quiz)
    grade_item_curve_set(item=quiz, kind="add", value="7", actor=ta, reason="y", loaded=loaded)
    grade_item_curve_set(item=quiz, kind="add", value="8", actor=ta, reason="z")  # no page: None
    quiz.refresh_from_db()
    assert str(quiz.curve) == "+8"


@pytest.mark.django_db(transaction=True)
def test_concurrent_saves_from_the_same_page_state_write_one(ta, instructor, student_a) -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "concurrent writers are checked on PostgreSQL (make test), as in test_concurrent_record"
        )
    item = GradeItem.objects.create(key="quiz:9", title="q", kind="quiz", max_points=100)
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def save(actor, kind: str, value: str) -> None:
        try:
            barrier.wait()
            grade_item_curve_set(
                item=item, kind=kind, value=value, actor=actor, reason="r", loaded="#0"
            )
            outcomes.append("saved")
        except CurveConflict:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=save, args=(ta, "add", "5")),
        threading.Thread(target=save, args=(instructor, "scale", "1.2")),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["refused", "saved"]
    assert _curve_actions(item) == ["curve_set"]


@pytest.mark.django_db
def test_a_stale_page_is_refused_over_a_new_reason_or_a_curve_removed_and_set_again(
    client_ta, ta, quiz
) -> None:
    """The curve alone ("+5") let both through (a review): B gives the same +5 a new reason, or
    removes it and sets +5 again; A's page, loaded over the first +5, must not overwrite either."""
    assert _post(client_ta, quiz, "#0", reason="first").status_code == 302
    a_loaded = loaded_curve(client_ta, quiz)
    grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="B's reason")
    response = _post(client_ta, quiz, a_loaded, reason="A's reason")
    assert response.status_code == 409
    quiz.refresh_from_db()
    assert quiz.curve_reason == "B's reason"
    a_loaded = loaded_curve(client_ta, quiz)
    grade_item_curve_remove(item=quiz, actor=ta, reason="B removes")
    grade_item_curve_set(item=quiz, kind="add", value="5", actor=ta, reason="B sets again")
    assert _post(client_ta, quiz, a_loaded, do="remove", reason="A").status_code == 409
    quiz.refresh_from_db()
    assert str(quiz.curve) == "+5" and quiz.curve_reason == "B sets again"
