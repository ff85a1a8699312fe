"""Staff item analysis (facility, discrimination, choice distribution) and the attempts CSV."""

import csv
import io
from datetime import UTC, datetime
from decimal import Decimal

import pytest

from accounts.services import user_create_with_role
from quizzes.models import Attempt
from quizzes.selectors import item_analysis
from quizzes.services import answer_save, attempt_start, attempt_submit
from quizzes.tests.factories import question_single, quiz_with


@pytest.fixture
def analysed_quiz(db):
    easy, hard = question_single("ia-easy", correct="a"), question_single("ia-hard", correct="a")
    quiz = quiz_with([easy, hard], slug="analysed")
    # 4 students: s0 gets both right, s1 and s2 only the easy one, s3 neither
    plan = {0: ("a", "a"), 1: ("a", "b"), 2: ("a", "c"), 3: ("b", "b")}
    for i, (e, h) in plan.items():
        student = user_create_with_role(username=f"ia{i}", password="pw-test-12345", role="student")
        attempt = attempt_start(quiz=quiz, student=student)
        answer_save(
            attempt_id=attempt.pk, student=student, question_id=easy.pk, data={"value": [e]}
        )
        answer_save(
            attempt_id=attempt.pk, student=student, question_id=hard.pk, data={"value": [h]}
        )
        attempt_submit(attempt_id=attempt.pk)
    return quiz


def test_facility_discrimination_and_distribution(analysed_quiz) -> None:
    n, stats = item_analysis(analysed_quiz)
    assert n == 4
    easy, hard = stats
    assert easy.facility == pytest.approx(0.75) and hard.facility == pytest.approx(0.25)
    # groups of round(4 × 27 %) = 1: top = s0 (both right), bottom = s3 (none right)
    assert easy.discrimination == pytest.approx(1.0) and hard.discrimination == pytest.approx(1.0)
    assert [(k, count) for k, _t, count, _c in easy.distribution] == [
        ("a", 3),
        ("b", 1),
        ("c", 0),
        ("d", 0),
    ]
    assert [(k, count) for k, _t, count, _c in hard.distribution] == [
        ("a", 1),
        ("b", 2),
        ("c", 1),
        ("d", 0),
    ]


def test_only_staff_see_analysis_and_csv(analysed_quiz, client_a, client_ta) -> None:
    assert client_a.get("/quizzes/analysed/analysis/").status_code == 403
    assert client_a.get("/quizzes/analysed/attempts.csv").status_code == 403
    page = client_ta.get("/quizzes/analysed/analysis/").content.decode()
    assert "ia-easy" in page and "75%" in page and "+1.00" in page
    response = client_ta.get("/quizzes/analysed/attempts.csv")
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["username", "name", "attempt"] and rows[0][-2:] == ["ia-easy", "ia-hard"]
    by_user = {r[0]: r for r in rows[1:]}
    assert set(by_user) == {"ia0", "ia1", "ia2", "ia3"}
    assert by_user["ia0"][-2:] == ["1", "1"] and Decimal(by_user["ia3"][10]) == Decimal("0")


@pytest.mark.parametrize(
    ("lang", "state", "no"), [("zh-hans", "已提交", "否"), ("en", "Submitted", "no")]
)
def test_csv_says_states_yes_no_and_local_times_as_the_pages_do(
    analysed_quiz, client_ta, lang, state, no
) -> None:
    """Not the stored codes ('submitted', 'false') nor UTC ISO times: a TA in Shanghai reads the
    state in the page language and the time it was on the clock (the site's TIME_ZONE)."""
    attempt = Attempt.objects.get(student__username="ia0")
    Attempt.objects.filter(pk=attempt.pk).update(
        started_at=datetime(2026, 12, 1, 15, 30, 5, tzinfo=UTC),
        submitted_at=datetime(2026, 12, 1, 16, 0, 9, tzinfo=UTC),
    )
    client_ta.cookies["django_language"] = lang
    rows = list(
        csv.DictReader(
            io.StringIO(client_ta.get("/quizzes/analysed/attempts.csv").content.decode("utf-8-sig"))
        )
    )
    row = next(r for r in rows if r["username"] == "ia0")
    assert (row["state"], row["auto_submitted"], row["late"]) == (state, no, no)
    assert (row["started_at"], row["submitted_at"]) == (
        "2026-12-01 23:30:05",
        "2026-12-02 00:00:09",
    )
