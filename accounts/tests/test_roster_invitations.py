"""The roster tells "not invited yet" from "invited on <date>" (Profile.invited_at, set when the
set-your-password e-mail goes out); staff who may import the roster send the invitation later
from the roster page, to one person or to everyone not yet invited.

After an import with "发送邀请邮件" unticked everyone showed "待设置（已邀请）", though no mail
had been sent, and nothing on the page could send one."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils.timezone import localtime

from accounts.models import Profile

pytestmark = pytest.mark.django_db
User = get_user_model()

ROSTER, INVITE = "/accounts/staff/roster/", "/accounts/staff/roster/invite/"
TEXT = (
    "student_id,name,email,role\n"
    "new1,One,new1@example.edu,student\n"
    "new2,Two,new2@example.edu,student\n"
)


def _import(client, invite: bool) -> None:
    file = SimpleUploadedFile("list.csv", TEXT.encode(), content_type="text/csv")
    preview = client.post("/accounts/staff/roster/upload/", {"file": file}).content.decode()
    payload = re.search(r'name="payload" value="([^"]+)"', preview)[1]
    data = {"payload": payload, **({"invite": "on"} if invite else {})}
    assert client.post("/accounts/staff/roster/confirm/", data).status_code == 302


def _status(page: str, student_id: str) -> str:
    row = re.search(rf'<tr data-student-id="{student_id}">(.*?)</tr>', page, flags=re.S)[1]
    return re.sub(r"<[^>]+>", "", row.rsplit("<td", 1)[1].split(">", 1)[1])


def test_an_import_without_invitations_says_not_invited(client_instructor, mailoutbox) -> None:
    _import(client_instructor, invite=False)
    page = client_instructor.get(ROSTER).content.decode()
    assert not mailoutbox
    assert "待设置（未邀请）" in _status(page, "new1") and "已邀请" not in page
    assert "邀请所有尚未邀请的人（2）" in page and 'id="roster-invite-all"' in page
    assert not Profile.objects.filter(invited_at__isnull=False).exists()


def test_an_import_with_invitations_says_when(client_instructor, mailoutbox) -> None:
    _import(client_instructor, invite=True)
    page = client_instructor.get(ROSTER).content.decode()
    assert len(mailoutbox) == 2
    invited_at = Profile.objects.get(student_id="new1").invited_at
    assert invited_at is not None
    assert f"待设置（{localtime(invited_at):%Y-%m-%d}" in _status(page, "new1")
    assert "已邀请）" in _status(page, "new1") and "重新发送邀请" in _status(page, "new1")
    assert 'id="roster-invite-all"' not in page  # nobody left to invite for the first time


def test_invite_everyone_not_invited_yet(client_instructor, mailoutbox, student_a) -> None:
    _import(client_instructor, invite=False)
    Profile.objects.filter(student_id="new2").update(invited_at="2026-01-01T00:00Z")
    response = client_instructor.post(INVITE, {"all": "1"}, follow=True)
    assert [m.to for m in mailoutbox] == [["new1@example.edu"]]  # not new2, nor student_a
    assert "邀请邮件：已发送 1，缺少地址 0。" in response.content.decode()
    assert Profile.objects.get(student_id="new1").invited_at is not None


def test_invite_one_person_again(client_instructor, mailoutbox, student_a) -> None:
    _import(client_instructor, invite=True)
    new2 = User.objects.get(username="new2")
    response = client_instructor.post(INVITE, {"user": new2.pk}, follow=True)
    assert [m.to for m in mailoutbox[2:]] == [["new2@example.edu"]]
    assert "邀请邮件：已发送 1，缺少地址 0。" in response.content.decode()
    # Someone who set a password gets no set-your-password link from the roster.
    refused = client_instructor.post(INVITE, {"user": student_a.pk}, follow=True)
    assert len(mailoutbox) == 3 and "没有需要邀请的人。" in refused.content.decode()


def test_only_who_may_import_the_roster_invites(client_instructor, client_ta, client_a) -> None:
    _import(client_instructor, invite=False)
    new1 = User.objects.get(username="new1")
    for client in (client_ta, client_a):
        assert client.post(INVITE, {"all": "1"}).status_code == 403
        assert client.post(INVITE, {"user": new1.pk}).status_code == 403
    assert client_instructor.get(INVITE).status_code == 405
    page = client_ta.get(ROSTER).content.decode()
    assert "待设置（未邀请）" in page and INVITE not in page  # the TA sees, but cannot send
    assert not Profile.objects.filter(invited_at__isnull=False).exists()


def test_the_person_page_says_not_invited(client_instructor) -> None:
    _import(client_instructor, invite=False)
    new1 = User.objects.get(username="new1")
    page = client_instructor.get(f"/staff/people/{new1.pk}/").content.decode()
    assert "尚未设置密码（未邀请）" in page and "已邀请" not in page


@pytest.mark.parametrize("user", ["²", "abc", "-1", str(10**30)])
def test_a_person_id_that_is_no_id_invites_nobody(client_instructor, mailoutbox, user) -> None:
    """An id of "²" passed str.isdigit() and then broke int(): a 500, not the roster page."""
    _import(client_instructor, invite=False)
    response = client_instructor.post(INVITE, {"user": user}, follow=True)
    assert response.status_code == 200
    assert "没有需要邀请的人。" in response.content.decode() and not mailoutbox
