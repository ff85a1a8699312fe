from django.urls import path

from quizzes import views

app_name = "quizzes"
urlpatterns = [
    path("", views.quiz_list, name="list"),
    path("attempt/<int:pk>/", views.attempt_take, name="attempt"),
    path("attempt/<int:pk>/answer/<int:question_pk>/", views.answer_save, name="answer"),
    path("attempt/<int:pk>/submit/", views.attempt_submit, name="submit"),
    path("attempt/<int:pk>/review/", views.attempt_review, name="review"),
    path("<slug:slug>/", views.quiz_detail, name="detail"),
    path("<slug:slug>/start/", views.attempt_start, name="start"),
    path("<slug:slug>/analysis/", views.quiz_analysis, name="analysis"),
    path("<slug:slug>/attempts.csv", views.attempts_csv, name="attempts_csv"),
]
