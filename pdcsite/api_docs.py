"""The API's OpenAPI schema and its Swagger UI page, both without any CDN.

The Swagger UI assets come from drf-spectacular-sidecar's static files; the page loads its start-up
script from a URL (the split view) and carries no inline script or style, so it runs under a CSP
without 'unsafe-inline'.
"""

from __future__ import annotations

from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView


def only_api_v1(endpoints):
    """Preprocessing hook: the schema documents /api/v1/ only (not the gradebook's page API)."""
    return [endpoint for endpoint in endpoints if endpoint[0].startswith("/api/v1/")]


schema_view = SpectacularAPIView.as_view()
# GET and HEAD only: DRF answers OPTIONS with metadata, which the page's HTML renderer has no
# template for (a server error).
docs_view = SpectacularSwaggerSplitView.as_view(
    url_name="api_schema", template_name="api/swagger_ui.html", http_method_names=["get", "head"]
)
