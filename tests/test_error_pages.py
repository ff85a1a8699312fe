"""Error pages in the site's layout, in the reader's language, with DEBUG off as in production.

A student who opened a staff page got Django's bare English "403 Forbidden"; a lab upload over the
request limit replaced the editor with an unstyled page and no way back; a GET of a form-only
address was an empty 405. 403, 404 and 405 are drawn with the request (navigation, language
switch); 500 and a refused request with no session, user or database at all
(templates/standalone.html), since those may be what failed.
"""

from __future__ import annotations

import pytest
from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.template import loader
from django.test import Client
from django.urls import path

from pdcsite import urls as site_urls

pytestmark = pytest.mark.django_db

STAFF_PAGES = ["/grades/staff/", "/staff/", "/quizzes/staff/"]
LAYOUT = ('<header class="site-header">', "/static/css/site.css", 'class="site-footer"')


def _boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a bug, not the database")


# The site's URLs and handlers plus one view that fails (ROOT_URLCONF is this module below).
urlpatterns = [path("test-boom/", _boom), *site_urls.urlpatterns]
handler500 = site_urls.handler500


@pytest.fixture(autouse=True)
def _production_like(settings) -> None:
    settings.DEBUG = False  # Django shows its technical pages instead when DEBUG is on


def _english(client: Client) -> Client:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    return client


def _in_layout(html: str) -> None:
    for marker in LAYOUT:
        assert marker in html, marker


@pytest.mark.parametrize("url", STAFF_PAGES)
def test_student_on_a_staff_page_gets_the_site_403_in_both_languages(client_a, url: str) -> None:
    response = client_a.get(url)
    html = response.content.decode()
    assert response.status_code == 403
    _in_layout(html)
    assert 'class="nav-links"' in html  # drawn with the request: the student's own navigation
    assert "没有访问权限" in html and "课程教学人员" in html and 'href="/"' in html
    assert "403 Forbidden" not in html

    english = _english(client_a).get(url).content.decode()
    assert "Access denied" in english and "course staff" in english
    assert "没有访问权限" not in english and 'lang="en"' in english


def test_unknown_address_is_the_site_404_in_both_languages(client_a) -> None:
    for url in ("/no-such-page/", "/lab/problems/no-such-problem/"):  # no route; a view's Http404
        response = client_a.get(url)
        html = response.content.decode()
        assert response.status_code == 404, url
        _in_layout(html)
        assert "找不到页面" in html and "<h1>Not Found</h1>" not in html
    english = _english(client_a).get("/no-such-page/").content.decode()
    assert "Page not found" in english and "找不到页面" not in english


def test_server_error_is_the_site_500_in_both_languages(settings, student_a) -> None:
    settings.ROOT_URLCONF = __name__
    client = Client(raise_request_exception=False)
    client.force_login(student_a)
    response = client.get("/test-boom/")
    html = response.content.decode()
    assert response.status_code == 500
    _in_layout(html)
    assert "服务器出错" in html and 'href="/"' in html and "RuntimeError" not in html
    assert 'class="nav-links"' not in html  # no user on this page: it may be what failed
    english = _english(client).get("/test-boom/").content.decode()
    assert "Server error" in english and "服务器出错" not in english


@pytest.mark.parametrize(
    ("template", "heading"), [("500.html", "服务器出错"), ("503.html", "暂时无法访问")]
)
def test_server_error_pages_need_no_request_and_no_database(
    django_assert_num_queries, template: str, heading: str
) -> None:
    """As django.views.defaults.server_error (and errors_views for 503) draw them: no context, no
    request, no context processor (the course-name one asks the database who the user is)."""
    with django_assert_num_queries(0):
        html = loader.get_template(template).render()
    _in_layout(html)
    assert heading in html


class _Unreadable:
    """A request body that fails the test if anything reads it."""

    def read(self, *args: object) -> bytes:
        raise AssertionError("the refused body was read")

    readline = read


def _oversized(client: Client, url: str):
    limit = settings.PDC_MAX_REQUEST_BYTES
    return client.generic(
        "POST",
        url,
        CONTENT_TYPE="multipart/form-data; boundary=x",
        CONTENT_LENGTH=str(limit + 1),
        **{"wsgi.input": _Unreadable()},
    )


def test_oversized_lab_upload_is_refused_in_the_site_layout_with_a_way_back(
    client_a, django_assert_num_queries
) -> None:
    url = "/lab/problems/vector-add/submit/"
    kib = settings.PDC_MAX_REQUEST_BYTES // 1024
    with django_assert_num_queries(0):  # before the session: no database, no user
        response = _oversized(client_a, url)
    html = response.content.decode()
    assert response.status_code == 413
    _in_layout(html)
    assert "请求未被接受" in html and f"请求过大：上限 {kib} KiB。" in html
    assert "data-history-back" in html and "返回上一页" in html and 'href="/"' in html
    assert 'class="nav-links"' not in html and "csrfmiddlewaretoken" not in html

    english = _oversized(_english(client_a), url).content.decode()
    assert "Request not accepted" in english and "Back to the previous page" in english
    assert "请求" not in english


POST_ONLY = [
    ("client_a", "/lab/problems/vector-add/submit/", "/lab/problems/vector-add/"),
    ("client_ta", "/grades/staff/students/{pk}/override/", "/grades/staff/students/{pk}/"),
    ("client_instructor", "/quizzes/staff/midterm/pick/", "/quizzes/staff/midterm/"),
]


@pytest.mark.parametrize(("who", "url", "up"), POST_ONLY)
def test_opening_a_form_only_address_is_the_site_405_in_both_languages(
    request, student_a, who: str, url: str, up: str
) -> None:
    """A GET of an address that only takes a form's POST (a bookmark, a reload after the language
    switch) was an empty body: Chromium showed "HTTP ERROR 405" with no way back."""
    client = request.getfixturevalue(who)
    url, up = url.format(pk=student_a.pk), up.format(pk=student_a.pk)
    response = client.get(url)
    html = response.content.decode()
    assert response.status_code == 405 and response["Allow"] == "POST"
    _in_layout(html)
    assert 'class="nav-links"' in html  # drawn with the request: the reader's own navigation
    assert "这个地址不能直接打开" in html and "表单" in html
    assert f'href="{up}"' in html and 'href="/"' in html
    assert client.head(url).status_code == 405

    english = _english(client).get(url).content.decode()
    assert "This address cannot be opened directly" in english and f'href="{up}"' in english
    assert "地址" not in english and 'lang="en"' in english


def test_a_405_links_up_only_to_an_address_that_exists(client_a) -> None:
    html = client_a.get("/i18n/setlang/").content.decode()  # Django's view: GET redirects
    assert "这个地址不能直接打开" not in html
    html = client_a.get("/accounts/logout/").content.decode()
    assert "这个地址不能直接打开" in html and 'href="/accounts/"' not in html


def test_the_api_keeps_its_json_405(client_a) -> None:
    response = client_a.get("/api/v1/worker/result")
    assert response.status_code in (401, 403, 405)  # DRF: credentials are checked first
    assert response["Content-Type"].startswith("application/json")
    response = client_a.put("/api/v1/submissions")
    assert response.status_code == 405 and response.json()["detail"]
    response = client_a.get("/api/v1/submissions", HTTP_ACCEPT="text/html")
    assert response["Content-Type"].startswith("application/json"), response.status_code


@pytest.mark.parametrize("lang", ["zh-hans", "en"])
def test_a_stale_form_gets_the_sites_page_in_the_visitors_language(student_a, lang) -> None:
    """A form posted with a missing or stale CSRF token (a page left open across a new login)
    got Django's bare page: "403 Forbidden", half-translated Chinese, "set DEBUG=True"."""
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    client.force_login(student_a)
    client.cookies["django_language"] = lang
    response = client.post("/accounts/profile/pseudonym/", {"pseudonym": "x"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "DEBUG" not in html and 'class="error-page"' in html
    assert "student_a" in html  # drawn with the request: the header knows who is signed in
    said = "表单已过期" if lang == "zh-hans" else "This form has expired"
    assert said in html
