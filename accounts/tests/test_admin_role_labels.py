"""The admin names the role groups by their roles' labels (教师 / Instructor), never by the codes
they are stored under ("instructor", "ta", "student"), which role_of checks: on the group list, a
group's change and history pages, the user page's groups picker (or its groups row where the viewer
may only view) and the user list's filter by group. They were the raw codes on every admin page."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import Group, Permission
from django.test import Client

from accounts.roles import INSTRUCTOR
from accounts.services import user_create_with_role

pytestmark = pytest.mark.django_db

CODES = {"instructor", "student", "ta"}
LABELS = {"zh-hans": {"教师", "助教", "学生"}, "en": {"Instructor", "TA", "Student"}}
LANGUAGES = sorted(LABELS)


def _page(client: Client, url: str, lang: str) -> str:
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = lang
    response = client.get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _texts(page: str, start: str, end: str) -> set[str]:
    """The texts from the first `start` in the page to the `end` after it, with breadcrumbs and
    titles ("Instructor | Change group", "Change history: Instructor") cut into their parts."""
    part = ">" + page.split(start, 1)[1].split(end, 1)[0] + "<"
    nodes = re.findall(r">([^<>]+)<", part)
    texts = (text for node in nodes for text in re.split(r"&rsaquo;|\||[:：]", node))
    return {text.strip() for text in texts if text.strip()}


def _picker(page: str) -> set[str]:
    """The choices of the user page's groups picker."""
    return _texts(page, '<select name="groups"', "</select>")


def _subject() -> tuple[Group, int]:
    """The instructor role's group, and a user (a TA) whose change page has a groups row."""
    user = user_create_with_role(username="t-wang", password="pw-test-12345", role="ta")
    return Group.objects.get(name=INSTRUCTOR), user.pk


def _assert_group_pages_use_labels(client: Client, lang: str) -> None:
    group, _user = _subject()
    listing = _page(client, "/admin/auth/group/", lang)
    rows = _texts(listing, 'id="result_list"', "</table>")
    assert LABELS[lang] <= rows and not rows & CODES, rows
    # The rows' checkboxes (where the viewer has actions) name them to screen readers.
    checkbox_labels = set(
        re.findall(r'class="action-select" aria-label="[^"]* - ([^"]+)"', listing)
    )
    assert checkbox_labels in (set(), LABELS[lang]), checkbox_labels

    label = "教师" if lang == "zh-hans" else "Instructor"
    change = _page(client, f"/admin/auth/group/{group.pk}/change/", lang)
    names = (
        _texts(change, "<title>", "</title>")
        | _texts(change, '<div class="breadcrumbs">', "</div>")
        | _texts(change, '<div id="content"', "</h2>")  # the page's heading and the group's
    )
    assert label in names and not names & CODES, names
    assert 'name="name"' not in change  # the code role_of looks for cannot be renamed here
    history = _page(client, f"/admin/auth/group/{group.pk}/history/", lang)
    names = _texts(history, "<title>", "</title>") | _texts(
        history, '<div class="breadcrumbs">', "</div>"
    )
    assert label in names and not names & CODES, names


def _assert_user_filter_uses_labels(client: Client, lang: str) -> None:
    listing = _page(client, "/admin/auth/user/", lang)
    # templates/admin/filter.html marks a Chinese choice as such (lang="zh-CN")
    links = re.findall(r'href="\?groups__id__exact=\d+">(?:<span lang="zh-CN">)?([^<]*)<', listing)
    choices = set(links)
    assert LABELS[lang] <= choices and not choices & CODES, choices


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_superuser_sees_role_labels(admin_client, lang: str) -> None:
    _assert_group_pages_use_labels(admin_client, lang)
    _assert_user_filter_uses_labels(admin_client, lang)
    _group, user_pk = _subject()
    page = _page(admin_client, f"/admin/auth/user/{user_pk}/change/", lang)
    assert _picker(page) == LABELS[lang], _picker(page)
    ta = "助教" if lang == "zh-hans" else "TA"
    assert re.search(rf"<option [^>]*selected>{ta}</option>", page)


def _grant(user, *codenames: str) -> None:
    user.user_permissions.add(
        *Permission.objects.filter(content_type__app_label="auth", codename__in=codenames)
    )


@pytest.mark.parametrize("lang", LANGUAGES)
def test_an_instructor_who_may_view_groups_and_users_sees_role_labels(
    instructor, client_instructor, lang: str
) -> None:
    _grant(instructor, "view_group", "view_user")
    _assert_group_pages_use_labels(client_instructor, lang)
    _assert_user_filter_uses_labels(client_instructor, lang)
    _group, user_pk = _subject()
    page = _page(client_instructor, f"/admin/auth/user/{user_pk}/change/", lang)
    groups_row = _texts(page, 'class="form-row field-group_labels"', "</fieldset>")
    assert ("助教" if lang == "zh-hans" else "TA") in groups_row, groups_row
    assert not groups_row & CODES


def test_an_instructor_who_may_change_users_picks_groups_by_label(
    instructor, client_instructor
) -> None:
    _grant(instructor, "view_user", "change_user")
    _group, user_pk = _subject()
    page = _page(client_instructor, f"/admin/auth/user/{user_pk}/change/", "en")
    assert _picker(page) == LABELS["en"], _picker(page)


def test_a_role_group_cannot_be_deleted_in_the_admin(admin_client) -> None:
    group, _user = _subject()
    assert admin_client.get(f"/admin/auth/group/{group.pk}/delete/").status_code == 403
    admin_client.post(
        "/admin/auth/group/",
        {"action": "delete_selected", "_selected_action": [group.pk], "post": "yes"},
    )
    assert Group.objects.filter(name=INSTRUCTOR).exists()
