"""The quiz UI is Chinese by default and English when the user picks English."""

from django.conf import settings

from quizzes.services import answer_save, attempt_start
from quizzes.tests.factories import question_numeric, quiz_with


def test_quiz_pages_switch_to_english(db, student_a, client_a) -> None:
    q = question_numeric("i18n-1")
    quiz = quiz_with([q], slug="i18n", max_attempts=2)
    assert "各讲练习" in client_a.get("/quizzes/").content.decode()
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    assert "Practice by lecture" in client_a.get("/quizzes/").content.decode()
    detail = client_a.get("/quizzes/i18n/").content.decode()
    assert "Start an attempt" in detail and "Maximum" not in detail
    attempt = attempt_start(quiz=quiz, student=student_a)
    page = client_a.get(f"/quizzes/attempt/{attempt.pk}/").content.decode()
    assert "Attempt 1" in page and "Submit" in page
    # one sentence once (a broken .po entry once printed the autosave note twice)
    assert page.count("Each answer is saved as soon as you choose it") == 1
    bad = client_a.post(f"/quizzes/attempt/{attempt.pk}/answer/{q.pk}/", {"value": "x"})
    assert "is not a valid number" in bad.content.decode()
    assert answer_save(
        attempt_id=attempt.pk, student=student_a, question_id=q.pk, data={"value": ["1"]}
    ).saved
