"""The quiz URLconf's order is part of its meaning: the staff pages come before the `<slug>/` quiz
pages ("staff" is never read as a quiz slug), and the question bank before the staff pages of one
quiz ("bank" is never read as one either). A quiz slug that is not a reserved word reaches its own
pages, the student's and the staff's. Resolving only: no database, well under a second."""

from __future__ import annotations

import pytest
from django.urls import resolve

CASES = [
    ("/quizzes/staff/", "quizzes:staff_quizzes", {}),
    ("/quizzes/staff/bank/", "quizzes:staff_bank", {}),
    ("/quizzes/staff/bank/new/", "quizzes:staff_question_new", {}),
    ("/quizzes/staff/bank/lecture5-staff.yaml", "quizzes:staff_bank_export", {"lecture": 5}),
    ("/quizzes/staff/week-1/", "quizzes:staff_quiz", {"slug": "week-1"}),
    ("/quizzes/staff/week-1/publish/", "quizzes:staff_quiz_publish", {"slug": "week-1"}),
    ("/quizzes/staff/bank/publish/", "quizzes:staff_quiz_publish", {"slug": "bank"}),
    (
        "/quizzes/staff/week-1/rules/3/remove/",
        "quizzes:staff_quiz_rule_remove",
        {"slug": "week-1", "rule_id": 3},
    ),
    ("/quizzes/attempt/7/", "quizzes:attempt", {"pk": 7}),
    ("/quizzes/attempt/7/answer/9/", "quizzes:answer", {"pk": 7, "question_pk": 9}),
    ("/quizzes/week-1/", "quizzes:detail", {"slug": "week-1"}),
    ("/quizzes/attempt/", "quizzes:detail", {"slug": "attempt"}),
    ("/quizzes/week-1/start/", "quizzes:start", {"slug": "week-1"}),
    ("/quizzes/week-1/attempts.csv", "quizzes:attempts_csv", {"slug": "week-1"}),
]


@pytest.mark.parametrize(("url", "view_name", "kwargs"), CASES)
def test_url_reaches_its_view(url: str, view_name: str, kwargs: dict) -> None:
    match = resolve(url)
    assert (match.view_name, match.kwargs) == (view_name, kwargs)
