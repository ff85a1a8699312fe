from django.contrib import admin
from django.urls import include, path

from pdcsite import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("status/", views.status, name="status"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("lectures/", include("lectures.urls")),
    path("quizzes/", include("quizzes.urls")),
    path("lab/", include("gradinglab.urls")),
    path("grades/", include("gradebook.urls")),
    path("staff/", include("staffdesk.urls")),
    path("api/v1/", include("gradinglab.api_urls")),
    path("admin/", admin.site.urls),
]

admin.site.site_header = "PDC Lab 管理"
admin.site.site_title = "PDC Lab"
