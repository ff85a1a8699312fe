"""A quiz's settings have sane bounds, said at the field in the reader's language, on the staff
editor and in the admin alike (the rules live on the model): gradebook points above 0, a time
limit of 1 minute to a day, at least 1 attempt and 1 drawn question (0 meant "no limit" and
"the whole pool"), a lecture number 1–99, a late penalty of 0–100 % (once a raw
"约束 “quiz_late_penalty_0_100” 是无效的"), and times in order (open, close, late deadline). A
refused form is shown again with what was typed; a draft saved before the rules cannot be
published."""

from __future__ import annotations

import pytest
from django.conf import settings

from quizzes.models import Quiz
from quizzes.tests.factories import question_single, quiz_with

pytestmark = pytest.mark.django_db

STAFF = "/quizzes/staff/"
NEW = {"title": "小测 B", "slug": "quiz-b", "late_penalty_percent": "0", "grade_max_points": "10",
       "grading_method": "best"}  # fmt: skip
OPEN, CLOSE = "2026-03-02T10:00", "2026-03-09T10:00"
EARLIER = "2026-03-01T10:00"

# (what is typed, the field at fault, the error in Chinese, the error in English)
REFUSED = [
    ({"grade_max_points": "-10"}, "grade_max_points", "计入成绩册的满分至少为 0.01 分。",
     "Maximum points in the gradebook must be at least 0.01."),
    ({"grade_max_points": "0"}, "grade_max_points", "计入成绩册的满分至少为 0.01 分。",
     "Maximum points in the gradebook must be at least 0.01."),
    ({"grade_max_points": "100000"}, "grade_max_points", "计入成绩册的满分最多为 1000 分。",
     "Maximum points in the gradebook can be at most 1000."),
    ({"time_limit_minutes": "0"}, "time_limit_minutes", "限时至少 1 分钟；不限时请留空。",
     "The time limit must be at least 1 minute; leave it empty for no limit."),
    ({"time_limit_minutes": "99999999999"}, "time_limit_minutes", "限时最多 1440 分钟。",
     "The time limit can be at most 1440 minutes."),
    ({"max_attempts": "0"}, "max_attempts", "最多作答次数至少为 1；不限次数请留空。",
     "Maximum attempts must be at least 1; leave it empty for no limit."),
    ({"lecture": "999"}, "lecture", "讲次最多为 99。", "The lecture number can be at most 99."),
    ({"lecture": "0"}, "lecture", "讲次至少为 1。", "The lecture number must be at least 1."),
    ({"late_penalty_percent": "150"}, "late_penalty_percent", "迟交扣分不能超过 100%。",
     "The late penalty cannot be more than 100%."),
    ({"late_penalty_percent": "-5"}, "late_penalty_percent", "迟交扣分不能小于 0%。",
     "The late penalty cannot be less than 0%."),
    ({"opens_at": CLOSE, "closes_at": OPEN}, "closes_at", "截止时间必须晚于开放时间。",
     "The due time must be after the opening time."),
    ({"closes_at": CLOSE, "late_until": OPEN}, "late_until", "迟交截止必须晚于截止时间。",
     "“Late submissions until” must be after the due time."),
    ({"opens_at": OPEN, "late_until": EARLIER}, "late_until", "迟交截止必须晚于开放时间。",
     "“Late submissions until” must be after the opening time."),
]  # fmt: skip
IDS = [f"{field}={'/'.join(typed.values())}" for typed, field, _zh, _en in REFUSED]


def _english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


@pytest.mark.parametrize(("typed", "field", "zh", "en"), REFUSED, ids=IDS)
def test_new_quiz_with_an_absurd_setting_is_refused_at_the_field(
    client_ta, typed, field, zh, en
) -> None:
    response = client_ta.post(STAFF, NEW | typed)
    assert response.status_code == 400
    form = response.context["form"]
    assert form.errors == {field: [zh]}
    page = response.content.decode()
    assert zh in page and "quiz_late_penalty_0_100" not in page
    assert 'value="小测 B"' in page and 'value="quiz-b"' in page  # nothing typed is lost
    assert not Quiz.objects.filter(slug="quiz-b").exists()
    _english(client_ta)
    assert client_ta.post(STAFF, NEW | typed).context["form"].errors == {field: [en]}


def test_the_bounds_themselves_are_accepted(client_ta) -> None:
    typed = {"grade_max_points": "1000", "time_limit_minutes": "1440", "lecture": "99",
             "late_penalty_percent": "100", "opens_at": OPEN, "closes_at": CLOSE,
             "late_until": "2026-03-16T10:00"}  # fmt: skip
    assert client_ta.post(STAFF, NEW | typed).status_code == 302
    quiz = Quiz.objects.get(slug="quiz-b")
    assert (quiz.time_limit_minutes, quiz.lecture, quiz.grade_max_points) == (1440, 99, 1000)


def test_the_quiz_editor_refuses_times_out_of_order_and_keeps_the_quiz(client_ta) -> None:
    quiz = quiz_with([question_single("sb-1")], slug="quiz-c", published=False)
    typed = NEW | {"slug": "quiz-c", "title": "改过的名称", "opens_at": CLOSE, "closes_at": OPEN}
    response = client_ta.post(f"{STAFF}quiz-c/settings/", typed)
    assert response.status_code == 400
    assert response.context["settings_form"].errors == {"closes_at": ["截止时间必须晚于开放时间。"]}
    assert 'value="改过的名称"' in response.content.decode()
    quiz.refresh_from_db()
    assert quiz.title == "测验一" and quiz.closes_at is None


def test_the_admin_applies_the_same_rules(client_instructor) -> None:
    data = NEW | {"kind": "graded", "partial_credit": "coverage", "time_limit_minutes": "0",
                  "late_penalty_percent": "150", "draw_count": "0", "pool-TOTAL_FORMS": "0",
                  "pool-INITIAL_FORMS": "0", "pool-MIN_NUM_FORMS": "0",
                  "pool-MAX_NUM_FORMS": "1000"}  # fmt: skip
    response = client_instructor.post("/admin/quizzes/quiz/add/", data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert errors == {
        "time_limit_minutes": ["限时至少 1 分钟；不限时请留空。"],
        "late_penalty_percent": ["迟交扣分不能超过 100%。"],
        "draw_count": ["抽题数至少为 1；使用全部题目请留空。"],
    }
    assert not Quiz.objects.filter(slug="quiz-b").exists()


def test_a_draft_saved_before_the_rules_cannot_be_published(client_instructor) -> None:
    quiz = quiz_with([question_single("sb-2")], slug="quiz-d", published=False)
    Quiz.objects.filter(pk=quiz.pk).update(time_limit_minutes=0)  # as saved before the rules
    response = client_instructor.post(f"{STAFF}quiz-d/publish/", {"published": "1"}, follow=True)
    assert "设置有误，不能发布：限时（分钟）：限时至少 1 分钟；不限时请留空。" in (
        response.content.decode()
    )
    quiz.refresh_from_db()
    assert not quiz.published
