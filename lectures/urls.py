from django.urls import path

from lectures import views

app_name = "lectures"
urlpatterns = [
    path("", views.lecture_list, name="list"),
    path("map/", views.course_map, name="map"),
    path("cheatsheet/", views.cheatsheet, name="cheatsheet"),
    path("search/", views.search, name="search"),
    path("sections/<int:pk>/read/", views.section_read_toggle, name="read"),
    path("<int:number>/", views.lecture_detail, name="detail"),
]
