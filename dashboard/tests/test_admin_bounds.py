"""The admin said "Constraint “announcement_expires_after_start” is violated." for an announcement
that expires before it starts: the rule is the model's clean() now, said at the field in the
page's language (the constraint stays for every other writer)."""

from __future__ import annotations

import pytest
from django.conf import settings

from dashboard.models import Announcement

SAYS = {
    "zh-hans": "过期时间必须晚于开始显示时间。",
    "en": "The expiry time must be after the time it starts showing.",
}


def _add(client, expires: str):
    """The admin's add form: an announcement shown from 2026-03-01 08:00 until `expires` 08:00."""
    return client.post(
        "/admin/dashboard/announcement/add/",
        {
            "title": "停课",
            "body_md": "x",
            "starts_at_0": "2026-03-01",
            "starts_at_1": "08:00:00",
            "expires_at_0": expires,
            "expires_at_1": "08:00:00",
        },
    )


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["zh-hans", "en"])
@pytest.mark.parametrize("expires", ["2026-02-28", "2026-03-01"])  # before, and at, the start
def test_admin_refuses_an_announcement_that_expires_before_it_starts(
    client_instructor, lang, expires
) -> None:
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = _add(client_instructor, expires)
    assert response.status_code == 200
    form = response.context["adminform"].form
    assert form.errors == {"expires_at": [SAYS[lang]]}
    assert "Constraint" not in response.content.decode()
    assert not Announcement.objects.exists()


@pytest.mark.django_db
def test_admin_saves_an_announcement_that_expires_after_it_starts(client_instructor) -> None:
    response = _add(client_instructor, "2026-03-02")
    assert response.status_code == 302
    assert Announcement.objects.count() == 1
