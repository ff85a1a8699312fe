from django.urls import path

from gradebook import api, staff_views, views

app_name = "gradebook"
urlpatterns = [
    path("", views.mine, name="mine"),
    path("mine.csv", views.mine_csv, name="mine_csv"),
    path("api/mine", api.MyGradesView.as_view(), name="api_mine"),
    path("regrades/", views.regrade_list, name="regrade_list"),
    path("regrades/new/", views.regrade_request_create, name="regrade_request_create"),
    path("regrades/<int:pk>/", views.regrade_detail, name="regrade_detail"),
    path("staff/", staff_views.grid, name="staff_grid"),
    path("staff/export.csv", staff_views.grid_csv, name="staff_grid_csv"),
    path("staff/import/", staff_views.grades_import, name="staff_import"),
    path("staff/regrades/", staff_views.regrade_queue, name="staff_regrades"),
    path("staff/items/<int:item_id>/", staff_views.item_detail, name="staff_item"),
    path("staff/items/<int:item_id>/export.csv", staff_views.item_csv, name="staff_item_csv"),
    path("staff/items/<int:item_id>/release/", staff_views.item_release, name="staff_release"),
    path("staff/items/<int:item_id>/curve/", staff_views.item_curve, name="staff_curve"),
    path("staff/students/<int:user_id>/", staff_views.student_detail, name="staff_student"),
    path(
        "staff/students/<int:user_id>/<slug:action>/",
        staff_views.student_action,
        name="staff_student_action",
    ),
]
