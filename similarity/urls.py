from django.urls import path

from similarity import views

app_name = "similarity"
urlpatterns = [
    path("", views.index, name="index"),
    path("assignments/<int:assignment_id>/", views.results, name="results"),
    path("assignments/<int:assignment_id>/run/", views.run_start, name="run"),
    path("pairs/<int:pair_id>/", views.review, name="review"),
    path("archive/import/", views.archive_import, name="archive_import"),
    path("archive/export/", views.archive_export, name="archive_export"),
]
