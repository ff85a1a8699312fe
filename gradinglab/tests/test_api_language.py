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
