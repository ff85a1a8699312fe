"""English lab pages count in English: "1 submission per 1 minute", "worth 1 point", "the check
of 1 problem". Chinese writes one and many alike, so each count goes through a plural form."""

from __future__ import annotations

from decimal import Decimal
from html import unescape

import pytest
from django.conf import settings

from conftest import admin_action
from gradinglab import conf
from gradinglab.models import Problem
from gradinglab.tests import labkit

pytestmark = pytest.mark.django_db


def _english(client) -> None:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"


def test_problem_page_counts_one_submission_minute_and_point(client_a, monkeypatch) -> None:
    labkit.make_assignment(rate_limit_count=1, rate_limit_minutes=1, points=Decimal("1"))
    monkeypatch.setattr(conf, "PRACTICE_RATE_MINUTES", 1)
    _english(client_a)
    page = unescape(client_a.get("/lab/problems/vector-add/").content.decode())
    assert "at most 1 submission per 1 minute\n" in page, page
    assert "(at most 20 every 1 minute)" in page
    assert "worth 1 point: correctness 1 point (" in page


def test_problem_page_counts_many_in_the_plural(client_a) -> None:
    labkit.make_assignment(rate_limit_count=3, rate_limit_minutes=10, points=Decimal("2.5"))
    _english(client_a)
    page = unescape(client_a.get("/lab/problems/vector-add/").content.decode())
    assert "at most 3 submissions per 10 minutes" in page
    assert "worth 2.5 points: correctness 2.5 points (" in page


def test_rate_limit_refusal_names_one_minute(client_a, django_capture_on_commit_callbacks) -> None:
    labkit.make_assignment(rate_limit_count=1, rate_limit_minutes=1)
    labkit.purge()
    _english(client_a)
    first, _ = labkit.submit_and_take(client_a, django_capture_on_commit_callbacks)
    assert first.status_code == 201
    refused = labkit.submit(client_a)
    assert refused.status_code == 429
    assert "at most 1 every 1 minute." in refused.json()["detail"]


def test_admin_check_of_one_problem(client, django_user_model) -> None:
    labkit.make_assignment()
    root = django_user_model.objects.create_superuser("root", "r@example.edu", "pw-12345678")
    client.force_login(root)
    _english(client)
    problem = Problem.objects.get(slug="vector-add")
    response = admin_action(client, "/admin/gradinglab/problem/", "run_publishing_check", problem)
    page = unescape(client.get(response.url).content.decode())
    assert "Queued the check of 1 problem;" in page and "see the result\n" not in page
