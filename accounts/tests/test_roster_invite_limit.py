"""Invitation e-mails to one person are limited per day (services.INVITES_PER_USER_PER_WINDOW),
however they are sent; the roster page names who was not sent one again and why, and everyone else
in the same batch still gets theirs.

An audit found that the "重新发送邀请" button could be clicked without bound, each click a mail."""

from __future__ import annotations

import re
import smtplib

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.mail.backends import locmem

from accounts.services import INVITES_PER_USER_PER_WINDOW

pytestmark = pytest.mark.django_db
User = get_user_model()

INVITE = "/accounts/staff/roster/invite/"
TEXT = (
    "student_id,name,email,role\n"
    "new1,One,new1@example.edu,student\n"
    "new2,Two,new2@example.edu,student\n"
)
LIMIT_ZH = f"每人每 24 小时最多 {INVITES_PER_USER_PER_WINDOW} 封邀请邮件"


def _import(client, invite: bool):
    file = SimpleUploadedFile("list.csv", TEXT.encode(), content_type="text/csv")
    preview = client.post("/accounts/staff/roster/upload/", {"file": file}).content.decode()
    payload = re.search(r'name="payload" value="([^"]+)"', preview)[1]
    data = {"payload": payload, **({"invite": "on"} if invite else {})}
    return client.post("/accounts/staff/roster/confirm/", data, follow=True)


def _resend(client, username: str):
    return client.post(INVITE, {"user": User.objects.get(username=username).pk}, follow=True)


def test_resending_to_one_person_stops_at_the_limit(client_instructor, mailoutbox) -> None:
    _import(client_instructor, invite=False)
    for _ in range(INVITES_PER_USER_PER_WINDOW):
        assert "邀请邮件：已发送 1" in _resend(client_instructor, "new1").content.decode()
    page = _resend(client_instructor, "new1").content.decode()
    assert len(mailoutbox) == INVITES_PER_USER_PER_WINDOW
    assert f"未重新发送给 new1：{LIMIT_ZH}，请稍后再试。" in page
    assert "邀请邮件：已发送 0" not in page  # the line that says why is enough
    client_instructor.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    page = _resend(client_instructor, "new1").content.decode()
    assert (
        f"Not sent again to new1: at most {INVITES_PER_USER_PER_WINDOW} invitation emails per "
        "person in 24 h; try again later." in page
    )
    assert len(mailoutbox) == INVITES_PER_USER_PER_WINDOW


def test_a_bulk_invitation_still_reaches_the_others(client_instructor, mailoutbox) -> None:
    """An import with invitations ticked re-sends to everyone without a password."""
    _import(client_instructor, invite=True)  # one each
    for _ in range(INVITES_PER_USER_PER_WINDOW - 1):
        _resend(client_instructor, "new1")
    page = _import(client_instructor, invite=True).content.decode()
    to = [m.to for m in mailoutbox]
    assert to.count(["new1@example.edu"]) == INVITES_PER_USER_PER_WINDOW
    assert to.count(["new2@example.edu"]) == 2  # the second import reached new2
    assert "邀请邮件：已发送 1，缺少地址 0。" in page
    assert f"未重新发送给 new1：{LIMIT_ZH}" in page and "new2：" not in page


class _RefusesNew1(locmem.EmailBackend):
    def send_messages(self, messages):  # type: ignore[override]
        if any("new1@" in to for message in messages for to in message.to):
            raise smtplib.SMTPRecipientsRefused({"new1@example.edu": (550, b"mailbox busy")})
        return super().send_messages(messages)


def test_a_refused_mail_is_not_counted(client_instructor, mailoutbox, settings) -> None:
    """The page says to send a failed invitation again later: during a mail-server outage the
    failures must not use up the person's allowance (a review found them blocked for a day)."""
    _import(client_instructor, invite=False)
    settings.EMAIL_BACKEND = f"{__name__}._RefusesNew1"
    for _ in range(INVITES_PER_USER_PER_WINDOW + 1):
        assert "发给 new1 的邮件失败" in _resend(client_instructor, "new1").content.decode()
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    for _ in range(INVITES_PER_USER_PER_WINDOW):
        assert "邀请邮件：已发送 1" in _resend(client_instructor, "new1").content.decode()
    assert "未重新发送给 new1" in _resend(client_instructor, "new1").content.decode()


def test_the_command_says_who_was_not_sent_again(tmp_path, mailoutbox) -> None:
    """import_roster, run again and again, stops at the same limit and says so."""
    from io import StringIO

    from django.core.management import call_command

    path = tmp_path / "roster.csv"
    path.write_text(TEXT, encoding="utf-8")
    said = ""
    for _ in range(INVITES_PER_USER_PER_WINDOW + 1):
        out = StringIO()
        call_command("import_roster", path, stdout=out)
        said = out.getvalue()
    assert len(mailoutbox) == 2 * INVITES_PER_USER_PER_WINDOW
    assert (
        f"not sent again to new1, new2: at most {INVITES_PER_USER_PER_WINDOW} invitations per "
        "person per 24 hours" in said
    ), said
