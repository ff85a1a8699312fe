"""The students' API answers in the request's language: a submission to a problem with no open
assignment is a 404 whose message the CLI prints as it is."""

from __future__ import annotations

import pytest
from django.conf import settings

from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db


def test_no_open_lab_is_said_in_the_request_language(client_a) -> None:
    chinese = labkit.submit(client_a, slug="no-such-problem")
    assert chinese.status_code == 404
    assert chinese.json()["detail"] == "没有可提交的实验：no-such-problem"
    client_a.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english = labkit.submit(client_a, slug="no-such-problem")
    assert english.status_code == 404
    assert english.json()["detail"] == "No lab assignment open for submission: no-such-problem"
    points = client_a.get("/api/v1/problems/no-such-problem/points", HTTP_ACCEPT="application/json")
    assert points.status_code == 404 and points.json()["detail"].startswith("No lab assignment")


URL = "/api/v1/problems/vector-add/points"


@pytest.mark.parametrize(
    ("token", "chinese", "english"),
    [
        ("pdc_not-a-real-token", "令牌无效或已被撤销。", "Invalid or revoked token."),
        ("abc", "这不是学生的 API 令牌。", "Not a student API token."),
    ],
)
def test_a_bad_token_is_refused_in_the_accept_language(client, token, chinese, english) -> None:
    auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
    default = client.get(URL, **auth)
    assert default.status_code == 401 and default.json()["detail"] == chinese
    asked = client.get(URL, HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9", **auth)
    assert asked.status_code == 401 and asked.json()["detail"] == english


def test_a_validation_error_is_said_in_the_accept_language(client_a) -> None:
    def post(**headers):
        body = {"problem": "vector-add", "backend": "triton"}  # no source
        return client_a.post("/api/v1/submissions", body, "application/json", **headers)

    chinese = post()
    assert chinese.status_code == 400 and chinese.json()["detail"]["source"] == ["该字段是必填项。"]
    english = post(HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 400
    assert english.json()["detail"]["source"] == ["This field is required."]


def test_a_web_page_still_ignores_accept_language(client_a) -> None:
    page = client_a.get("/lab/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="zh-CN">' in page


@pytest.mark.parametrize("path", ["/api/v1/submissions/{pk}", "/api/v1/submissions/{pk}/source"])
def test_someone_elses_submission_is_a_404_in_the_request_language(
    client_a, client_b, assignment, django_capture_on_commit_callbacks, path
) -> None:
    """Django's own message was English and named the model ("No Submission matches the given
    query.") in both languages; another student's submission and a missing one read alike."""
    with django_capture_on_commit_callbacks(execute=True):
        pk = labkit.submit(client_a).json()["id"]
    labkit.purge()
    for wanted in (pk, pk + 1000):
        chinese = client_b.get(path.format(pk=wanted), HTTP_ACCEPT_LANGUAGE="zh-hans")
        assert chinese.status_code == 404
        assert chinese.json()["detail"] == "没有这个提交，或者你无权查看。"
        english = client_b.get(path.format(pk=wanted), HTTP_ACCEPT_LANGUAGE="en")
        assert english.json()["detail"] == "No such submission, or it is not yours to see."
    assert client_a.get(path.format(pk=pk)).status_code == 200
