"""Roster-imported students get an invitation, set a password through the reset-token flow and log in;
anyone can ask for a new link. Real mail goes through Django's locmem outbox (django.core.mail)."""

from __future__ import annotations

import re
import smtplib
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.mail.backends import locmem
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import api_token_create, roster_invite

User = get_user_model()
ROSTER = """student_id,name,email,role,section
2026001,张三,zhangsan@example.edu,student,A
2026002,李四,lisi@example.edu,student,B
"""
NEW_PASSWORD = "Kernel-fusion-2026!"


def _link(message: mail.EmailMessage) -> str:
    match = re.search(r"https?://[^/\s]+(/accounts/password/reset/[^\s]+/)", message.body)
    assert match, message.body
    return match.group(1)


def _set_password(client: Client, link: str, password: str = NEW_PASSWORD):
    landing = client.get(link)  # Django swaps the token for a session key and redirects
    assert landing.status_code == 302, landing.status_code
    form_url = landing["Location"]
    page = client.get(form_url)
    assert page.status_code == 200 and 'name="new_password1"' in page.content.decode()
    return client.post(form_url, {"new_password1": password, "new_password2": password})


@pytest.mark.django_db
def test_roster_invitation_lets_a_student_set_a_password_and_log_in(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    call_command("import_roster", path)
    assert sorted(m.to[0] for m in mail.outbox) == ["lisi@example.edu", "zhangsan@example.edu"]
    zhang = User.objects.get(username="2026001")
    assert not zhang.has_usable_password()
    invite = next(m for m in mail.outbox if m.to == ["zhangsan@example.edu"])
    assert "2026001" in invite.body and "张三" in invite.body

    client = Client()
    done = _set_password(client, _link(invite))
    assert done.status_code == 302 and done["Location"] == reverse(
        "accounts:password_reset_complete"
    )
    assert Client().login(username="2026001", password=NEW_PASSWORD)
    # The link is spent once a password is set; a second use shows the invalid-link page.
    again = Client().get(_link(invite), follow=True)
    assert 'name="new_password1"' not in again.content.decode()
    assert "此链接无效或已过期" in again.content.decode()

    # Re-importing invites only those who still have no password.
    mail.outbox.clear()
    call_command("import_roster", path)
    assert [m.to for m in mail.outbox] == [["lisi@example.edu"]]


@pytest.mark.django_db
def test_no_invite_flag_sends_nothing(tmp_path: Path) -> None:
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    call_command("import_roster", path, "--no-invite")
    assert mail.outbox == [] and User.objects.count() == 2


@pytest.mark.django_db
def test_forgot_password_works_for_never_set_and_set_passwords(student_a) -> None:
    never_set = User.objects.create(username="2026009", email="wu@example.edu")
    never_set.set_unusable_password()
    never_set.save()
    for user in (never_set, student_a):
        mail.outbox.clear()
        client = Client()
        sent = client.post(reverse("accounts:password_reset"), {"email": user.email.upper()})
        assert sent.status_code == 302 and sent["Location"] == reverse(
            "accounts:password_reset_done"
        )
        assert [m.to for m in mail.outbox] == [[user.email]]
        assert _set_password(client, _link(mail.outbox[0])).status_code == 302
        assert Client().login(username=user.username, password=NEW_PASSWORD)


@pytest.mark.django_db
def test_a_locked_out_student_sets_a_new_password_and_gets_straight_in(student_a) -> None:
    # The lock guards the old password; a new one set through the emailed link lifts it (and the
    # lockout page says so and links there). Before, the student waited out the 15 minutes.
    login = reverse("accounts:login")
    client = Client()
    for _ in range(settings.AXES_FAILURE_LIMIT):
        locked = client.post(login, {"username": "student_a", "password": "wrong-guess"})
    assert locked.status_code == 429
    assert f'href="{reverse("accounts:password_reset")}"' in locked.content.decode()
    client.post(reverse("accounts:password_reset"), {"email": student_a.email})
    assert _set_password(client, _link(mail.outbox[0])).status_code == 302
    signed_in = client.post(login, {"username": "student_a", "password": NEW_PASSWORD})
    assert signed_in.status_code == 302 and signed_in["Location"] == "/"


@pytest.mark.django_db
def test_unknown_address_sends_nothing_and_says_the_same(client) -> None:
    page = client.post(reverse("accounts:password_reset"), {"email": "nobody@example.edu"})
    assert page.status_code == 302 and page["Location"] == reverse("accounts:password_reset_done")
    assert mail.outbox == []


@pytest.mark.django_db
def test_login_page_links_to_the_reset_form(client) -> None:
    assert (
        reverse("accounts:password_reset") in client.get(reverse("accounts:login")).content.decode()
    )


@pytest.mark.django_db
def test_reset_revokes_cli_tokens(student_a) -> None:
    raw = api_token_create(user=student_a)
    roster_invite(student_a)
    assert _set_password(Client(), _link(mail.outbox[0])).status_code == 302
    assert ApiToken.objects.by_raw(raw) is None


@pytest.mark.django_db
def test_reset_pages_speak_english_when_chosen(client) -> None:
    client.post(reverse("set_language"), {"language": "en", "next": "/"})
    html = client.get(reverse("accounts:password_reset")).content.decode()
    assert "Reset your password" in html and "找回密码" not in html


class _RefusesOneAddress(locmem.EmailBackend):
    def send_messages(self, messages):  # type: ignore[override]
        if any("lisi@" in to for message in messages for to in message.to):
            raise smtplib.SMTPRecipientsRefused({"lisi@example.edu": (550, b"no such user")})
        return super().send_messages(messages)


@pytest.mark.django_db
def test_one_refused_invitation_does_not_stop_the_others(tmp_path: Path, settings) -> None:
    settings.EMAIL_BACKEND = f"{__name__}._RefusesOneAddress"
    path = tmp_path / "roster.csv"
    path.write_text(ROSTER, encoding="utf-8")
    with pytest.raises(CommandError, match="2026002"):
        call_command("import_roster", path)
    assert [m.to for m in mail.outbox] == [["zhangsan@example.edu"]]
    assert User.objects.count() == 2  # the import itself stands


@pytest.fixture
def reset_counters() -> Iterator[None]:
    cache.clear()  # the reset counters live in the cache; every test client is 127.0.0.1
    yield
    cache.clear()


def _ask(email: str, ip: str = "127.0.0.1"):
    return Client(REMOTE_ADDR=ip).post(reverse("accounts:password_reset"), {"email": email})


@pytest.mark.django_db
@override_settings(PDC_RESET_PER_ADDRESS_PER_HOUR=2)
def test_reset_mails_are_limited_per_address(reset_counters, student_a) -> None:
    """15 posts in under a second sent 15 mails; now an address gets two an hour, whoever asks."""
    answers = [_ask(student_a.email.upper(), ip=f"198.51.100.{n}") for n in range(1, 6)]
    assert len(mail.outbox) == 2
    unknown = _ask("nobody@example.edu")  # the answer for an address with no account
    for answer in answers:
        assert (answer.status_code, answer["Location"]) == (302, unknown["Location"])


@pytest.mark.django_db
@override_settings(PDC_RESET_PER_CLIENT_PER_HOUR=2)
def test_reset_mails_are_limited_per_client_address(reset_counters, student_a, student_b) -> None:
    for email in ("nobody@example.edu", student_a.email, student_b.email):
        answer = _ask(email, ip="198.51.100.7")
        assert answer.status_code == 302
        assert answer["Location"] == reverse("accounts:password_reset_done")
    assert [m.to for m in mail.outbox] == [[student_a.email]]  # student_b's was the third ask
    _ask(student_b.email, ip="198.51.100.8")  # another client still gets its link
    assert [m.to for m in mail.outbox] == [[student_a.email], [student_b.email]]


@pytest.mark.django_db
@override_settings(PDC_RESET_PER_CLIENT_PER_HOUR=1, PDC_TRUSTED_PROXY_COUNT=1)
def test_reset_limit_counts_the_client_behind_the_proxy(reset_counters, student_a) -> None:
    def ask(forwarded: str) -> None:
        Client(HTTP_X_FORWARDED_FOR=forwarded).post(
            reverse("accounts:password_reset"), {"email": student_a.email}
        )

    ask("203.0.113.1")
    ask("203.0.113.1")
    ask("203.0.113.2")
    assert len(mail.outbox) == 2
