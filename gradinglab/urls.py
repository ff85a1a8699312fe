from django.urls import include, path

from gradinglab import views

app_name = "gradinglab"

# One problem's pages, under a prefix that says <slug:slug> once.
problem_urls = [
    path("", views.problem_detail, name="problem"),
    path("submit/", views.submit, name="submit"),
    path("draft/", views.draft_autosave, name="draft"),
    path("leaderboard/", views.leaderboard, name="leaderboard"),
    path("starter/<str:backend>/", views.starter_download, name="starter"),
]

urlpatterns = [
    path("", views.index, name="index"),
    path("workers/", views.workers_panel, name="workers"),
    path("problems/<slug:slug>/", include(problem_urls)),
    path("submissions/diff/", views.submission_diff, name="diff"),
    path("submissions/<int:pk>/", views.submission_detail, name="submission"),
    path("submissions/<int:pk>/status/", views.submission_status, name="submission_status"),
    path("submissions/<int:pk>/source/", views.submission_source, name="submission_source"),
]
