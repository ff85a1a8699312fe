"""Announcements saved before a renderer fix get the fixed HTML at the next deploy, as lectures and
lab statements do (`manage.py rerender_announcements`; scripts/import_content.sh runs it, see
tests/test_import_content.py); one body that fails to render keeps its HTML and stops no other."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.utils import timezone

from dashboard import services
from dashboard.models import Announcement
from dashboard.services import render_announcement

pytestmark = pytest.mark.django_db

# What a renderer that let raw HTML through stored (lectures' 72e5ddc fixed that for every text).
OLD_HTML = "<p><script>alert(1)</script></p>"


def _stored(body_md: str, body_html: str) -> Announcement:
    now = timezone.now()
    return Announcement.objects.create(
        title="t", body_md=body_md, body_html=body_html, expires_at=now + timedelta(days=1)
    )


def _run() -> str:
    out = StringIO()
    call_command("rerender_announcements", stdout=out, stderr=out)
    return out.getvalue()


def test_stale_html_is_replaced_by_the_current_render_once() -> None:
    stale = _stored("<script>alert(1)</script>", OLD_HTML)
    body = "**已**更新"
    fresh = _stored(body, render_announcement(body))
    assert "rerendered 1, unchanged 1, errors 0" in _run()
    stale.refresh_from_db()
    assert stale.body_html == render_announcement(stale.body_md)
    assert "<script>" not in stale.body_html and "&lt;script&gt;" in stale.body_html
    fresh.refresh_from_db()
    assert fresh.body_html == render_announcement(body)
    assert "rerendered 0, unchanged 2, errors 0" in _run()  # idempotent


def test_one_body_that_fails_to_render_stops_none_of_the_others(monkeypatch) -> None:
    # Fault injection at our own renderer (no real input is known to make it raise).
    real = services.render_announcement

    def render(text: str) -> str:
        if "BOOM" in text:
            raise ValueError("renderer bug")
        return real(text)

    monkeypatch.setattr(services, "render_announcement", render)
    broken = _stored("BOOM", "<p>kept</p>")
    after = _stored("<b>later</b>", OLD_HTML)  # saved after the broken one: still refreshed
    out = _run()
    assert "rerendered 1, unchanged 0, errors 1" in out
    assert "failed to render and kept their HTML" in out
    broken.refresh_from_db()
    after.refresh_from_db()
    assert broken.body_html == "<p>kept</p>"
    assert after.body_html == real("<b>later</b>")
