"""Bad input in the Django admin gets a clear error, never a server error. Staff work there
(quizzes, lectures, the roster, grades): every registered model's list (search and filters), add
form and change form is sent junk in every field a person types into, as the site administrator
and as an instructor. A section saved with an unclosed ``` fence was a 500 that lost the edit;
tests/test_form_junk.py skips the admin, so nothing caught it."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client

from tests.test_form_junk import JUNK, _Forms, send_junk
from tests.uiworld import build_world

# Markdown the lecture renderer refuses, beside the generic junk.
ADMIN_JUNK = [*JUNK, "```c\nint x;\n", "!figure no-such-figure"]


def _admin_pages() -> list[str]:
    """Each registered model's list, add page and the change page of its first row."""
    pages = []
    for model in admin.site._registry:
        base = f"/admin/{model._meta.app_label}/{model._meta.model_name}/"
        pages += [base, f"{base}add/"]
        first = model.objects.first()
        if first is not None:
            pages.append(f"{base}{first.pk}/change/")
    return pages


def _send_junk(client: Client, page: str) -> tuple[int, list[str]]:
    response = client.get(page)
    if response.status_code >= 500:
        return 1, [f"{response.status_code} GET {page}"]
    if response.status_code != 200:
        return 0, []  # no permission for this role: the admin's own 403 or redirect
    parser = _Forms()
    parser.feed(response.content.decode())
    sent, failures = 0, []
    for form in parser.forms:
        if not form["typed"] or "logout" in form["action"]:
            continue
        sent += len(ADMIN_JUNK)
        failures += [
            f"{f} {page}" for f in send_junk(client, form, form["action"] or page, ADMIN_JUNK)
        ]
    return sent, failures


@pytest.mark.slow
@pytest.mark.django_db
def test_no_admin_form_answers_junk_with_a_server_error(django_user_model) -> None:
    world = build_world()
    root = django_user_model.objects.create_superuser("root", password="x")
    report: list[str] = []
    for user in (root, world.instructor):
        client = Client(raise_request_exception=False)
        client.force_login(user)
        sent = 0
        for page in _admin_pages():
            n, failures = _send_junk(client, page)
            sent += n
            report += [f"{user.username}: {f}" for f in failures]
        assert sent > 100, f"{user.username}: only {sent} sends"
    assert report == [], "\n".join(report)
