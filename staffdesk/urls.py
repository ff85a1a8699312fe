from django.urls import path

from staffdesk import views

app_name = "staffdesk"
urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("people/<int:user_id>/", views.person, name="person"),
]
