"""The home dashboard: what is due next (labelled with the time left, rounded down), announcements
shown from their start until their expiry with their Markdown rendered and raw HTML escaped, and
only what the user may see."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from dashboard.models import Announcement
from dashboard.selectors import announcements_current, due_next, time_left_label
from dashboard.services import announcement_save, render_announcement

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("delta", "zh"),
    [
        (timedelta(days=1, hours=2, minutes=59), "1 天 2 小时"),
        (timedelta(days=7), "7 天"),
        (timedelta(hours=5, minutes=10, seconds=59), "5 小时 10 分钟"),
        (timedelta(minutes=12), "12 分钟"),
        (timedelta(seconds=-5), "0 分钟"),
    ],
)
def test_time_left_is_rounded_down(delta, zh) -> None:
    assert time_left_label(delta) == zh


def test_time_left_in_english_has_plurals(settings) -> None:
    from django.utils import translation

    with translation.override("en"):
        assert time_left_label(timedelta(days=1, hours=1)) == "1 day 1 hour"
        assert time_left_label(timedelta(days=3, hours=2)) == "3 days 2 hours"


def test_due_next_lists_quizzes_and_labs_in_order_within_the_horizon(student_a) -> None:
    from gradinglab.tests.labkit import make_assignment
    from quizzes.models import Quiz

    now = timezone.now()
    make_assignment(due_at=now + timedelta(days=7))
    Quiz.objects.create(title="明天", slug="q1", published=True, closes_at=now + timedelta(days=1))
    Quiz.objects.create(title="草稿", slug="q2", published=False, closes_at=now + timedelta(days=2))
    Quiz.objects.create(title="很远", slug="q3", published=True, closes_at=now + timedelta(days=60))
    Quiz.objects.create(title="已过", slug="q4", published=True, closes_at=now - timedelta(days=1))
    rows = due_next(student_a, now=now)
    assert [(r.kind, r.title) for r in rows] == [("quiz", "明天"), ("lab", "向量加法")]
    assert rows[0].time_left == "1 天" and rows[0].url == "/quizzes/q1/"


def test_announcement_is_current_from_start_until_expiry() -> None:
    now = timezone.now()
    a = announcement_save(
        announcement=Announcement(
            title="t", body_md="x", starts_at=now, expires_at=now + timedelta(hours=1)
        )
    )
    assert announcements_current(now=now - timedelta(seconds=1)) == []
    assert announcements_current(now=now) == [a]
    assert announcements_current(now=now + timedelta(minutes=59)) == [a]
    assert announcements_current(now=now + timedelta(hours=1)) == []  # gone at the expiry


def test_announcement_markdown_is_rendered_and_raw_html_escaped() -> None:
    html = render_announcement('**bold** <script>alert(1)</script> <a href="x" onclick="y">z</a>')
    assert "<strong>bold</strong>" in html
    assert "<script" not in html and "<a " not in html  # tags come out as text
    assert "&lt;script&gt;" in html and "&lt;a href" in html


def test_announcement_cannot_make_readers_post(client_a) -> None:
    """An audit's chain: a TA's announcement with htmx attributes (attr_list) made a superuser's
    browser post to the admin on load. The page carries no such attribute, and the body sits in
    an hx-disable block so that htmx would not act on one the renderer missed."""
    now = timezone.now()
    announcement_save(
        announcement=Announcement(
            title="欢迎",
            body_md='欢迎\n{: hx-post="/admin/auth/user/3/change/" hx-trigger="load" }',
            starts_at=now - timedelta(minutes=1),
            expires_at=now + timedelta(hours=1),
        )
    )
    page = client_a.get("/").content.decode()
    assert '<div class="announcement-body" hx-disable' in page
    assert "/admin/auth/user/3/change/" not in page and 'hx-trigger="load"' not in page


def test_announcement_math_and_section_links_render_as_in_the_notes() -> None:
    """Staff write the notes' Markdown in announcements too: "$O(n^2)$" was shown as dollars."""
    html = render_announcement("复习 $O(n^2)$ 与 [3.4 节](sec:3.4)。\n\n## 安排\n\n$$a+b$$\n")
    assert html.count("<math") == 2 and "$" not in html
    assert 'href="/lectures/3/#sec-3-4"' in html
    assert '<h2 id="announcement-' in html


def test_expiry_before_start_is_refused() -> None:
    from django.core.exceptions import ValidationError

    now = timezone.now()
    with pytest.raises(ValidationError):
        announcement_save(
            announcement=Announcement(title="t", starts_at=now, expires_at=now - timedelta(hours=1))
        )


def test_home_shows_announcement_and_due_items(client_a) -> None:
    now = timezone.now()
    announcement_save(
        announcement=Announcement(
            title="停机", body_md="*今晚*", expires_at=now + timedelta(days=1)
        )
    )
    html = client_a.get("/").content.decode()
    assert "停机" in html and "<em>今晚</em>" in html and "接下来要交" in html


def test_home_marks_only_chinese_text_as_chinese(client_a) -> None:
    """lang="zh-CN" tells screen readers how to say a text: an English page's lab name and a
    staff's English announcement are not Chinese; a Chinese announcement is."""
    import re

    from gradinglab.tests.labkit import make_assignment

    now = timezone.now()
    make_assignment(due_at=now + timedelta(days=2))
    for title, body in (("Maintenance tonight", "*Back at 9*"), ("停机", "*今晚*")):
        announcement_save(
            announcement=Announcement(title=title, body_md=body, expires_at=now + timedelta(days=1))
        )
    client_a.cookies["django_language"] = "en"
    html = client_a.get("/").content.decode()
    chinese = re.findall(r'lang="zh-CN"[^>]*>\s*(?:<[^>]+>\s*)*([^<]+)', html)
    assert "Vector addition" in html and "Maintenance tonight" in html
    assert not [
        t for t in chinese if "Vector addition" in t or "Maintenance" in t or "Back at" in t
    ]
    assert "停机" in chinese and "今晚" in chinese, chinese


def test_staff_post_announcements_in_the_admin(client_ta, ta) -> None:
    response = client_ta.post(
        "/admin/dashboard/announcement/add/",
        {
            "title": "第 5 讲调课",
            "body_md": "改到 **周四**。",
            "starts_at_0": "2026-12-01",
            "starts_at_1": "08:00:00",
            "expires_at_0": "2099-12-08",
            "expires_at_1": "08:00:00",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    a = Announcement.objects.get()
    assert a.created_by == ta and "<strong>周四</strong>" in a.body_html
