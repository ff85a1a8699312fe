"""The quiz URLconf's order is part of its meaning: the staff pages come before the `<slug>/` quiz
pages ("staff" is never read as a quiz slug), and the question bank before the staff pages of one
quiz ("bank" is never read as one either). A quiz slug that is not a reserved word reaches its own
pages, the student's and the staff's, and the quiz form refuses the reserved ones."""

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


def _literal_segments() -> set[str]:
    """Every fixed path segment of the quiz URLconf (staff, bank, new, attempt, ...)."""
    from quizzes import urls

    routes = [str(p.pattern) for p in urls.urlpatterns]
    routes += [str(p.pattern) for group in (urls.quiz_urls, urls.staff_quiz_urls) for p in group]
    return {s for r in routes for s in r.split("/") if s and "<" not in s and "." not in s}


def test_a_quiz_slug_reaches_its_pages_unless_it_is_reserved() -> None:
    """RESERVED_SLUGS is exactly the fixed segments a quiz slug would lose its pages to."""
    from django.urls import reverse

    from quizzes.models import RESERVED_SLUGS

    lost = set()
    for slug in _literal_segments():
        for name in ("quizzes:detail", "quizzes:staff_quiz"):
            match = resolve(reverse(name, kwargs={"slug": slug}))
            if (match.view_name, match.kwargs) != (name, {"slug": slug}):
                lost.add(slug)
    assert lost == RESERVED_SLUGS


@pytest.mark.django_db
@pytest.mark.parametrize("slug", ["staff", "bank"])
def test_the_quiz_form_refuses_a_reserved_slug(slug: str) -> None:
    from quizzes.forms import QuizSettingsForm

    data = {"title": "t", "slug": slug, "late_penalty_percent": "0", "grade_max_points": "10",
            "grading_method": "best"}  # fmt: skip
    form = QuizSettingsForm(data)
    assert not form.is_valid() and "slug" in form.errors
    assert QuizSettingsForm({**data, "slug": "week-1"}).is_valid()
