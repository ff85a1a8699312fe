"""Lecture pages: TOC anchors, prev/next, per-student "读完了" marks and progress bars, access."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from lectures.models import Section, SectionRead

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def _progress(html: str, lecture: int) -> tuple[int, int]:
    block = html[html.index(f'id="lecture-progress-{lecture}"') :]
    read = int(re.search(r'data-read="(\d+)"', block).group(1))
    total = int(re.search(r'data-total="(\d+)"', block).group(1))
    return read, total


def test_lecture_page_has_toc_anchors_and_prev_next(imported, client_a) -> None:
    html = client_a.get("/lectures/3/").content.decode()
    toc = html[html.index('class="toc"') : html.index("</nav>", html.index('class="toc"'))]
    assert 'href="#sec-3-4"' in toc and 'id="sec-3-4"' in html
    assert 'rel="prev" href="/lectures/2/"' in html and 'rel="next" href="/lectures/4/"' in html
    html5 = client_a.get("/lectures/5/").content.decode()
    assert 'rel="next" href="/lectures/7/"' in html5  # there is no lecture 6
    assert 'rel="prev"' not in client_a.get("/lectures/1/").content.decode()


def test_mark_read_is_per_student_and_moves_the_progress_bar(imported, client_a, client_b) -> None:
    section = Section.objects.get(slug="sec-3-4")
    before = _progress(client_a.get("/lectures/").content.decode(), 3)
    resp = client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"}, **HTMX)
    assert resp.status_code == 200
    body = resp.content.decode()
    assert 'aria-pressed="true"' in body and 'hx-swap-oob="true"' in body
    assert _progress(body, 3) == (before[0] + 1, before[1])
    assert _progress(client_a.get("/lectures/").content.decode(), 3) == (1, before[1])
    assert _progress(client_b.get("/lectures/").content.decode(), 3) == (0, before[1])
    page = client_a.get("/lectures/3/").content.decode()
    form = page[page.index(f'id="read-{section.pk}"') :][:800]
    assert 'aria-pressed="true"' in form and 'data-section="3.4"' in form

    client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "0"}, **HTMX)
    assert not SectionRead.objects.filter(section=section).exists()


def test_marking_twice_stays_one_mark_and_plain_post_redirects(imported, client_a) -> None:
    section = Section.objects.get(slug="sec-3-1")
    for _ in range(2):
        resp = client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"})
        assert resp.status_code == 302 and resp["Location"] == "/lectures/3/#sec-3-1"
    assert SectionRead.objects.filter(section=section).count() == 1


def test_subsections_carry_no_mark_and_unknown_ids_are_404(imported, client_a) -> None:
    sub = Section.objects.get(slug="sec-9-1-4")
    assert client_a.post(f"/lectures/sections/{sub.pk}/read/", {"read": "1"}).status_code == 404
    assert client_a.post("/lectures/sections/999999/read/", {"read": "1"}).status_code == 404
    assert client_a.get("/lectures/6/").status_code == 404
    assert client_a.get(f"/lectures/sections/{sub.pk}/read/").status_code == 405


def test_pages_need_login(imported, client) -> None:
    section = Section.objects.get(slug="sec-3-4")
    for url in ("/lectures/", "/lectures/3/", "/lectures/map/", "/lectures/cheatsheet/"):
        assert client.get(url).status_code == 302
    assert client.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"}).status_code == 302
    assert not SectionRead.objects.exists()


def test_course_map_lists_reading_order_and_every_lecture(imported, client_a) -> None:
    html = client_a.get("/lectures/map/").content.decode()
    assert "概念 → 单卡编程 → 算子优化 → 编译自动化 → 多卡分布式 → 通信" in html
    for n in (1, 2, 3, 4, 5, 7, 8, 9, 10):
        assert f'href="/lectures/{n}/"' in html
    assert "五个模块" in html and "编者补充" in html


def test_every_cheatsheet_link_lands_on_an_existing_anchor(imported, client_a) -> None:
    html = client_a.get("/lectures/cheatsheet/").content.decode()
    links = set(re.findall(r'href="/lectures/(\d+)/#(sec-[\d-]+)"', html))
    assert len(links) >= 40
    for lecture, anchor in links:
        assert f'id="{anchor}"' in client_a.get(f"/lectures/{lecture}/").content.decode()
    for topic in (
        "Amdahl",
        "占用率",
        "bank conflict",
        "Roofline",
        "FlashAttention",
        "Winograd",
        "ZeRO",
        "气泡率",
        "Broadcast",
        "Ring AllReduce",
        "Hopper",
    ):
        assert topic in html
    assert html.count("编者补充") >= 10


def test_a_repeat_visit_is_served_from_the_page_cache(
    imported, client_a, django_assert_num_queries
) -> None:
    first = client_a.get("/lectures/8/").content.decode()  # renders and caches
    # session (tests use a locmem cache, so sessions live in the database; with Redis they come
    # from the cache), user, role (the header's admin link) and the lecture index with the user's
    # marks: no section or template work
    with django_assert_num_queries(4):
        again = client_a.get("/lectures/8/").content.decode()
    assert again == first and 'id="sec-8-7-2"' in again


def test_cached_page_follows_marks_edits_and_logins(
    imported, client_a, student_a, instructor
) -> None:
    from lectures.services import section_save_staff_edit

    section = Section.objects.get(slug="sec-3-2")
    first = client_a.get("/lectures/3/").content.decode()
    assert client_a.get("/lectures/3/").content.decode() == first  # served from the page cache
    client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"}, **HTMX)
    page = client_a.get("/lectures/3/").content.decode()
    assert 'aria-pressed="true"' in page[page.index(f'id="read-{section.pk}"') :][:600]

    section.body_md = "助教刚改过的说明。\n"
    section_save_staff_edit(section=section, user=instructor)
    assert "助教刚改过的说明。" in client_a.get("/lectures/3/").content.decode()

    csrf_client = Client(enforce_csrf_checks=True)
    csrf_client.force_login(student_a)
    for _ in range(2):  # the second page comes from the cache
        csrf_client.cookies.pop("csrftoken", None)  # a new CSRF secret, as after a new login
        page = csrf_client.get("/lectures/3/").content.decode()
        token = re.search(r'"X-CSRFToken": "([^"]+)"', page).group(1)
        resp = csrf_client.post(
            f"/lectures/sections/{section.pk}/read/", {"read": "1"}, HTTP_X_CSRFTOKEN=token, **HTMX
        )
        assert resp.status_code == 200


def test_each_read_button_is_described_by_its_sections_heading(imported, client_a) -> None:
    """Every section has the same "读完了" button: a screen reader listing the page's buttons heard
    the same words ten times. Each now points at its own heading (aria-describedby)."""
    html = client_a.get("/lectures/3/").content.decode()
    described = re.findall(
        r'<button[^>]*class="read-button[^"]*"[^>]*aria-describedby="([^"]+)"', html
    )
    headings = set(re.findall(r'<h2 id="([^"]+)"', html))
    assert len(described) == Section.objects.filter(lecture__number=3, level=2).count() > 1
    assert set(described) <= headings and len(set(described)) == len(described)
    section = Section.objects.get(slug="sec-3-4")
    again = client_a.post(f"/lectures/sections/{section.pk}/read/", {"read": "1"}, **HTMX)
    assert 'aria-describedby="sec-3-4-h"' in again.content.decode()  # the swapped-in button too
