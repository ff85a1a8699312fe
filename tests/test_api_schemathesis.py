"""Must hold 4 (issue 13): the OpenAPI schema documents every /api/v1/ endpoint, its docs page needs
no CDN, and schemathesis, generating valid and invalid requests from that schema against a live
server, gets no server error on any endpoint with either credential (student CLI token, worker
token). Bounded: a fixed number of examples per operation, well under 60 s on 2 cores."""

from __future__ import annotations

import re
import time

import pytest
import requests
from django.contrib.staticfiles import finders
from django.urls import URLPattern, get_resolver
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, openapi

from accounts.models import ApiToken
from accounts.services import api_token_create
from gradinglab.services.workers import worker_token_create
from gradinglab.tests.labkit import make_assignment, purge

EXAMPLES = 8  # per operation, mode and credential: 7 operations x 2 modes x 2 credentials x 8 = 224


def _api_v1_paths() -> set[str]:
    """Every /api/v1/ route, as OpenAPI writes it (<int:pk> -> {id}, <slug:slug> -> {slug})."""
    resolver = get_resolver()
    found = set()
    for pattern in resolver.url_patterns:
        if str(pattern.pattern) != "api/v1/":
            continue
        for sub in pattern.url_patterns:
            assert isinstance(sub, URLPattern)
            route = re.sub(r"<int:pk>", "{id}", str(sub.pattern))
            found.add("/api/v1/" + re.sub(r"<\w+:(\w+)>", r"{\1}", route))
    return found


@pytest.mark.django_db
def test_schema_documents_every_api_v1_endpoint(client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    assert set(schema["paths"]) == _api_v1_paths()
    assert {"studentToken", "workerToken"} <= set(schema["components"]["securitySchemes"])


@pytest.mark.django_db
def test_docs_page_loads_only_local_assets_and_no_inline_script(client) -> None:
    page = client.get("/api/docs/")
    assert page.status_code == 200
    html = page.content.decode()
    sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', html)
    assert sources and not [s for s in sources if s.startswith(("http:", "https:", "//"))]
    bodies = re.findall(r"<script[^>]*>(.*?)</script>", html, flags=re.S)
    assert bodies and all(not body.strip() for body in bodies)  # no inline script
    assert "<style" not in html and 'style="' not in html
    for src in sources:
        if src.startswith("/static/"):
            assert finders.find(src.removeprefix("/static/")), src
    [init_url] = re.findall(r'<script src="(/api/docs/[^"]*)"', html)
    init = client.get(init_url.replace("&amp;", "&"))
    assert init.status_code == 200 and "SwaggerUIBundle" in init.content.decode()


def _fuzz(operation, mode, base_url, session, kind, header, server_errors, counts) -> None:
    """EXAMPLES generated requests of one operation; a 5xx is recorded (no shrinking: we want all)."""

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        derandomize=True,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case) -> None:
        response = case.call(
            base_url=base_url, session=session, headers={"Authorization": header}, timeout=10
        )
        counts["requests"] += 1
        if response.status_code >= 500:
            server_errors.append(
                f"{kind} {mode.value} {case.method} {case.formatted_path} -> "
                f"{response.status_code}: {case.as_curl_command()[:300]}"
            )

    try:
        fuzz()
    except Unsatisfiable:
        # No invalid request can be built for some operations (e.g. a slug path: every string
        # is a valid one); valid requests to them are still sent in the positive mode.
        if mode is not GenerationMode.NEGATIVE:
            raise


@pytest.mark.django_db(transaction=True)
def test_schemathesis_finds_no_server_error(live_server, student_a) -> None:
    make_assignment(rate_limit_count=1000)
    purge()
    api_token_create(user=student_a)  # a second token: the student has history
    credentials = {
        "student": f"Token {api_token_create(user=student_a)}",
        "worker": f"Worker {worker_token_create(name='fuzz-cpu', kind='cpu')}",
    }
    assert ApiToken.objects.filter(user=student_a, revoked_at__isnull=True).count() == 1
    schema = openapi.from_url(f"{live_server.url}/api/schema/")
    operations = [result.ok() for result in schema.get_all_operations()]
    assert len(operations) == len(_api_v1_paths())
    session = requests.Session()
    server_errors: list[str] = []
    counts = {"requests": 0}
    started = time.monotonic()

    for kind, header in credentials.items():
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                _fuzz(
                    operation, mode, live_server.url, session, kind, header, server_errors, counts
                )
    elapsed = time.monotonic() - started
    print(f"schemathesis: {counts['requests']} requests in {elapsed:.1f} s")
    purge()
    assert server_errors == []
    assert counts["requests"] >= len(operations) * 2 * 2  # every operation, mode and credential ran
