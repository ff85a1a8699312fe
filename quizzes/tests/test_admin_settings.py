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
        "最高分 = 取最高的一次",
        "回顾选项：截止后",
    ):
        assert text in html, text
    # Choices are named by their labels; the stored codes (option values) are not spelled out.
    assert "all_or_nothing：" not in html and "best =" not in html
    assert client_instructor.get("/admin/quizzes/quiz/add/").status_code == 200
    assert client_instructor.get("/admin/quizzes/question/").status_code == 200


def test_saving_a_graded_quiz_in_admin_creates_its_gradebook_item(db, client_instructor) -> None:
    from gradebook.models import GradeItem

    quiz = quiz_with([question_single("adm-2")], slug="adm2", title="第一次小测")
    data = {
        "title": "第一次小测",
        "slug": "adm2",
        "kind": "graded",
        "published": "on",
        "late_penalty_percent": "0",
        "grading_method": "best",
        "partial_credit": "coverage",
        "grade_max_points": "20",
        "pool-TOTAL_FORMS": "1",
        "pool-INITIAL_FORMS": "1",
        "pool-MIN_NUM_FORMS": "0",
        "pool-MAX_NUM_FORMS": "1000",
        "pool-0-id": str(quiz.pool.get().pk),
        "pool-0-quiz": str(quiz.pk),
        "pool-0-question": str(quiz.pool.get().question_id),
        "pool-0-order": "0",
    }
    response = client_instructor.post(f"/admin/quizzes/quiz/{quiz.pk}/change/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    item = GradeItem.objects.get(key=quiz.gradebook_key)
    assert item.title == "第一次小测" and item.max_points == 20 and item.kind == "quiz"
