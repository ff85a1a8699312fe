from django.urls import path

from gradinglab import views

app_name = "gradinglab"
urlpatterns = [
    path("", views.index, name="index"),
    path("workers/", views.workers_panel, name="workers"),
    path("problems/<slug:slug>/", views.problem_detail, name="problem"),
    path("problems/<slug:slug>/submit/", views.submit, name="submit"),
    path("problems/<slug:slug>/draft/", views.draft_autosave, name="draft"),
    path("problems/<slug:slug>/leaderboard/", views.leaderboard, name="leaderboard"),
    path("problems/<slug:slug>/starter/<str:backend>/", views.starter_download, name="starter"),
    path("submissions/diff/", views.submission_diff, name="diff"),
    path("submissions/<int:pk>/", views.submission_detail, name="submission"),
    path("submissions/<int:pk>/status/", views.submission_status, name="submission_status"),
    path("submissions/<int:pk>/source/", views.submission_source, name="submission_source"),
]
