"""Findings of the security probe (issue 13), each checked against the running app:

- a Content-Security-Policy without 'unsafe-inline' on every page, and no inline script, handler or
  style attribute left in any template;
- ``Cache-Control: no-store`` on everything a signed-in user or an API credential gets;
- ``/healthz`` says "ok" and nothing about the stack; staff get the details on ``/status/``;
- oversized and unsized bodies are refused from their headers, before any byte is read.
"""

from __future__ import annotations

import re
import socket
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from accounts.services import api_token_create
from gradinglab.services.workers import worker_token_create

ROOT = Path(settings.BASE_DIR)
TEMPLATE_DIRS = [ROOT / "templates", *sorted(ROOT.glob("*/templates"))]
INLINE = {
    "inline <script> body": re.compile(r"<script(?![^>]*\bsrc=)[^>]*>"),
    "on* handler attribute": re.compile(r"<[^>]+\son[a-z]+\s*=", re.S),
    "style attribute": re.compile(r"<[^>]+\sstyle\s*=", re.S),
    "<style> element": re.compile(r"<style[\s>]"),
    "javascript: URL": re.compile(r"javascript:", re.I),
}


def test_no_template_has_inline_script_handlers_or_styles() -> None:
    found = []
    for directory in TEMPLATE_DIRS:
        for path in directory.rglob("*.html"):
            text = path.read_text(encoding="utf-8")
            found += [
                f"{path.relative_to(ROOT)}: {what}"
                for what, rx in INLINE.items()
                if rx.search(text)
            ]
    assert TEMPLATE_DIRS and not found, found


def _csp(response) -> str:
    return response["Content-Security-Policy"]


@pytest.mark.django_db
def test_csp_forbids_inline_code_on_public_and_private_pages(client_a) -> None:
    for response in (Client().get(reverse("accounts:login")), client_a.get("/")):
        policy = _csp(response)
        assert "script-src 'self'" in policy and "style-src 'self'" in policy
        assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
        assert "frame-ancestors 'none'" in policy and "object-src 'none'" in policy


@pytest.mark.django_db
def test_private_pages_and_api_answers_are_not_stored(client_a, student_a) -> None:
    for url in ("/", "/grades/", "/lectures/", reverse("accounts:profile")):
        assert "no-store" in client_a.get(url)["Cache-Control"], url
    raw = api_token_create(user=student_a)
    api = Client().get(
        reverse("api:submission_detail", args=[999999]), HTTP_AUTHORIZATION=f"Token {raw}"
    )
    assert "no-store" in api["Cache-Control"]


@pytest.mark.django_db
def test_healthz_tells_anonymous_callers_nothing_about_the_stack() -> None:
    response = Client().get("/healthz")
    assert response.status_code == 200 and response.json() == {"status": "ok"}
    assert "postgres" not in response.content.decode().lower()


@pytest.mark.django_db
def test_status_page_is_for_staff_and_shows_database_broker_queues_workers(
    client_instructor, client_a
) -> None:
    worker_token_create(name="status-cpu", kind="cpu")
    assert Client().get("/status/").status_code == 302  # sign in first
    assert client_a.get("/status/").status_code == 403
    page = client_instructor.get("/status/")
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert "正常（postgresql" in html  # the database answered
    assert "正常（redis）" in html  # the broker answered and its queues were counted
    for queue in ("default", "grade-cpu", "grade-gpu-h200"):
        assert f'<code translate="no">{queue}</code></td>' in html
    assert "status-cpu" in html and "离线" in html  # registered, no heartbeat yet


def _raw_request(live_server, head: str) -> str:
    """Send only the request head (no body) and read what the server answers within 10 s."""
    host, port = live_server.thread.host, live_server.thread.port
    answer = b""
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head.encode())
        try:
            while chunk := sock.recv(65536):
                answer += chunk
                sock.settimeout(1)  # s: the rest of an answer follows at once
        except TimeoutError:
            pass
    return answer.decode(errors="replace") or "(no answer: the server waits for the body)"


BIG = 20 * 1024 * 1024  # bytes: the probe's 20 MB upload


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("path", "ctype"),
    [
        ("/api/v1/submissions", "application/json"),
        ("/api/v1/worker/result", "application/json"),
        ("/lab/problems/vector-add/submit/", "multipart/form-data; boundary=x"),
        ("/accounts/login/", "application/x-www-form-urlencoded"),
    ],
)
def test_oversized_body_is_refused_before_it_is_read(live_server, path: str, ctype: str) -> None:
    answer = _raw_request(
        live_server,
        f"POST {path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: {ctype}\r\n"
        f"Content-Length: {BIG}\r\n\r\n",
    )
    assert answer.startswith("HTTP/1.1 413"), answer[:300]
    assert "2048 KiB" in answer


@pytest.mark.django_db(transaction=True)
def test_chunked_body_is_refused_not_silently_dropped(live_server) -> None:
    answer = _raw_request(
        live_server,
        "POST /api/v1/submissions HTTP/1.1\r\nHost: localhost\r\n"
        "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n",
    )
    assert answer.startswith("HTTP/1.1 411"), answer[:300]


@pytest.mark.parametrize("length", ["²", "abc", "-1"])
def test_a_content_length_that_is_no_number_is_400(client, length: str) -> None:
    """A length of "²" passed str.isdigit() and then broke int(): a 500 from the body limit."""
    response = client.generic("POST", "/api/v1/submissions", b"{}", CONTENT_LENGTH=length)
    assert response.status_code == 400 and "Content-Length" in response.json()["detail"]


@pytest.mark.django_db
def test_body_within_the_limit_still_reaches_the_view(client_a) -> None:
    response = client_a.post(reverse("accounts:login"), {"username": "x", "password": "y"})
    assert response.status_code in (200, 302)


def test_production_redirects_to_https_except_the_worker_api() -> None:
    """In-deployment workers post to http://web:8000 (docker-compose.yml); a redirect to https
    would turn their result POSTs into GETs and every result would be lost."""
    import os
    import subprocess
    import sys

    from pdcsite.tests.test_settings_env import PROD_OK

    code = (
        "import django, os; os.environ['DJANGO_SETTINGS_MODULE']='pdcsite.settings'; django.setup();"
        "from django.test import Client; c = Client();"
        "print(c.post('/api/v1/worker/result', '{}', content_type='application/json').status_code,"
        " c.post('/api/v1/workers/heartbeat').status_code, c.get('/lectures/').status_code)"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DJANGO_", "PDC_", "CACHE"))}
    env |= PROD_OK | {"ALLOWED_HOSTS": "testserver"}
    result = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )
    assert result.stdout.split() == ["401", "401", "301"], result.stdout + result.stderr


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["options", "post", "put", "delete"])
def test_api_docs_page_answers_other_methods_with_405(client, method) -> None:
    """OPTIONS made DRF render its metadata with the page's HTML renderer, which has no template
    for it (a 500, found by a fuzz)."""
    response = getattr(client, method)("/api/docs/")
    assert response.status_code == 405
    assert client.get("/api/docs/").status_code == 200
