from django.urls import include, path

from quizzes import staff_views, views

app_name = "quizzes"

# The pages about one quiz, one attempt, and one quiz on the staff side, each under its own
# <slug>/ or <pk>/ prefix, which is said (converter and keyword) once.
quiz_urls = [
    path("", views.quiz_detail, name="detail"),
    path("start/", views.attempt_start, name="start"),
    path("analysis/", views.quiz_analysis, name="analysis"),
    path("attempts.csv", views.attempts_csv, name="attempts_csv"),
]

attempt_urls = [
    path("", views.attempt_take, name="attempt"),
    path("answer/<int:question_pk>/", views.answer_save, name="answer"),
    path("submit/", views.attempt_submit, name="submit"),
    path("review/", views.attempt_review, name="review"),
]

staff_quiz_urls = [
    path("", staff_views.quiz_edit, name="staff_quiz"),
    path("settings/", staff_views.quiz_settings, name="staff_quiz_settings"),
    path("pick/", staff_views.quiz_pick, name="staff_quiz_pick"),
    path("points/", staff_views.quiz_points, name="staff_quiz_points"),
    path("rules/", staff_views.quiz_rule_add, name="staff_quiz_rule_add"),
    path(
        "rules/<int:rule_id>/remove/", staff_views.quiz_rule_remove, name="staff_quiz_rule_remove"
    ),
    path("publish/", staff_views.quiz_publish, name="staff_quiz_publish"),
    path("preview/", staff_views.quiz_preview, name="staff_quiz_preview"),
]

urlpatterns = [
    path("", views.quiz_list, name="list"),
    # staff pages first: "staff" must not be read as a quiz slug
    path("staff/", staff_views.quiz_list, name="staff_quizzes"),
    path("staff/bank/", staff_views.bank, name="staff_bank"),
    path("staff/bank/new/", staff_views.question_new, name="staff_question_new"),
    path(
        "staff/bank/lecture<int:lecture>-staff.yaml",
        staff_views.bank_export,
        name="staff_bank_export",
    ),
    path("staff/<slug:slug>/", include(staff_quiz_urls)),
    path("attempt/<int:pk>/", include(attempt_urls)),
    path("<slug:slug>/", include(quiz_urls)),
]
