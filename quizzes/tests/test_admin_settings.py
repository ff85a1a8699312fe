"""The quiz settings page in admin documents the partial-credit formulas and grading methods."""

from quizzes.tests.factories import question_single, quiz_with


def test_quiz_settings_page_documents_formulas(db, client_instructor) -> None:
    quiz = quiz_with([question_single("adm-1")], slug="adm")
    page = client_instructor.get(f"/admin/quizzes/quiz/{quiz.pk}/change/")
    assert page.status_code == 200
    html = page.content.decode()
    for text in (
        "max(0, (t − f) / c)",
        "(t / c) × (t / (t + f))",
        "best = 最高分",
        "回顾选项：截止后",
    ):
        assert text in html, text
    assert client_instructor.get("/admin/quizzes/quiz/add/").status_code == 200
    assert client_instructor.get("/admin/quizzes/question/").status_code == 200
