from django.urls import path

from flagreview import views

app_name = "flagreview"
urlpatterns = [
    path("", views.queue, name="queue"),
    path("submissions/<int:pk>/", views.case_detail, name="case"),
    path("submissions/<int:pk>/respond/", views.respond, name="respond"),
    path("submissions/<int:pk>/verdict/", views.verdict, name="verdict"),
]
