from django.contrib import admin
from django.urls import include, path
from django.utils.translation import gettext_lazy as _

from pdcsite import api_docs, views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    path("status/", views.status, name="status"),
    # Browsers ask for /favicon.ico whatever the page's <link rel=icon> says; answer, don't 404.
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("lectures/", include("lectures.urls")),
    path("quizzes/", include("quizzes.urls")),
    path("lab/", include("gradinglab.urls")),
    path("grades/", include("gradebook.urls")),
    path("staff/similarity/", include("similarity.urls")),
    path("staff/", include("staffdesk.urls")),
    path("flags/", include("flagreview.urls")),
    path("api/v1/", include("gradinglab.api_urls")),
    path("api/schema/", api_docs.schema_view, name="api_schema"),
    path("api/docs/", api_docs.docs_view, name="api_docs"),
    path("admin/", admin.site.urls),
]

admin.site.site_header = _("PDC Lab 管理")
admin.site.site_title = "PDC Lab"

# A database outage answers 503 with a friendly page (pdcsite/errors_views.py), not a trace.
handler500 = "pdcsite.errors_views.server_error"
