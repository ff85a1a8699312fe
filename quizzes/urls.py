from django.urls import path

from quizzes import staff_views, views

app_name = "quizzes"
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
    path("staff/<slug:slug>/", staff_views.quiz_edit, name="staff_quiz"),
    path("staff/<slug:slug>/settings/", staff_views.quiz_settings, name="staff_quiz_settings"),
    path("staff/<slug:slug>/pick/", staff_views.quiz_pick, name="staff_quiz_pick"),
    path("staff/<slug:slug>/points/", staff_views.quiz_points, name="staff_quiz_points"),
    path("staff/<slug:slug>/rules/", staff_views.quiz_rule_add, name="staff_quiz_rule_add"),
    path(
        "staff/<slug:slug>/rules/<int:rule_id>/remove/",
        staff_views.quiz_rule_remove,
        name="staff_quiz_rule_remove",
    ),
    path("staff/<slug:slug>/publish/", staff_views.quiz_publish, name="staff_quiz_publish"),
    path("staff/<slug:slug>/preview/", staff_views.quiz_preview, name="staff_quiz_preview"),
    path("attempt/<int:pk>/", views.attempt_take, name="attempt"),
    path("attempt/<int:pk>/answer/<int:question_pk>/", views.answer_save, name="answer"),
    path("attempt/<int:pk>/submit/", views.attempt_submit, name="submit"),
    path("attempt/<int:pk>/review/", views.attempt_review, name="review"),
    path("<slug:slug>/", views.quiz_detail, name="detail"),
    path("<slug:slug>/start/", views.attempt_start, name="start"),
    path("<slug:slug>/analysis/", views.quiz_analysis, name="analysis"),
    path("<slug:slug>/attempts.csv", views.attempts_csv, name="attempts_csv"),
]
