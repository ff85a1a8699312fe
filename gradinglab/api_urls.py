from django.urls import path

from gradinglab import api

app_name = "api"
urlpatterns = [
    path("worker/phase", api.worker_phase, name="worker_phase"),
    path("worker/result", api.worker_result, name="worker_result"),
    path("workers/heartbeat", api.worker_heartbeat, name="worker_heartbeat"),
    path("submissions", api.submission_create, name="submission_create"),
    path("submissions/<int:pk>", api.submission_detail, name="submission_detail"),
    path("submissions/<int:pk>/source", api.submission_source, name="submission_source"),
    path("problems/<slug:slug>/points", api.assignment_points, name="assignment_points"),
]
