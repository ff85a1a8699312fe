"""Writes for accounts: roster import and invitations, demo users, API tokens."""

from __future__ import annotations

import hashlib
import logging
import smtplib
import unicodedata
from dataclasses import dataclass

from axes.utils import reset as axes_reset
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, Group
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from django.utils.translation import gettext as _

from accounts import selectors
from accounts.models import (
    PSEUDONYM_BAD_CHARACTER,
    PSEUDONYM_TAKEN,
    ApiToken,
    Profile,
    pseudonym_has_bad_character,
)
from accounts.roles import INSTRUCTOR, ROLES, STUDENT, TA, role_cache_clear, roles_sync
from pdcsite.errors import LineErrors
from pdcsite.throttle import throttle_hit, throttle_refund
from pdcsite.uploads import csv_dict_reader

User = get_user_model()
log = logging.getLogger("accounts")

ROSTER_COLUMNS = ("student_id", "name", "email", "role")
ROSTER_OPTIONAL = ("section",)
_MAX_ROSTER_ROWS = 20000  # a course is far smaller; guards against a wrong file


class RosterError(LineErrors):
    """The roster file is invalid; `errors` lists (line number, reason)."""


class RosterDemotionUnconfirmed(RosterError):
    """The roster lowers staff roles (`errors` names the rows) and no one confirmed it."""


@dataclass(frozen=True)
class RosterRow:
    line: int
    student_id: str
    name: str
    email: str
    role: str
    section: str


@dataclass(frozen=True)
class RosterResult:
    created: int
    updated: int
    unchanged: int
    # Users of the file who cannot log in yet (new, or never set a password): whom to invite.
    pending_ids: tuple[int, ...] = ()


_NAME_MAX = min(  # characters: the profile and the account both keep the name
    Profile._meta.get_field("display_name").max_length,
    User._meta.get_field("first_name").max_length,
)
_EMAIL_MAX = User._meta.get_field("email").max_length  # characters
_SECTION_MAX = Profile._meta.get_field("section").max_length  # characters


def _parse_row(line: int, row: dict[str, str | None]) -> tuple[RosterRow | None, list[str]]:
    errors: list[str] = []
    if None in row:  # csv.DictReader puts surplus cells under the None key
        errors.append(_("列数过多"))
    values = {key: (row.get(key) or "").strip() for key in (*ROSTER_COLUMNS, *ROSTER_OPTIONAL)}
    sid = values["student_id"]
    if not sid:
        errors.append(_("student_id 为空"))
    elif len(sid) > 32 or not all(ch.isalnum() or ch in "-_." for ch in sid):
        errors.append(
            _("student_id “%(sid)s” 须为不超过 32 个字母、数字或 - _ . 字符") % {"sid": sid}
        )
    if not values["name"]:
        errors.append(_("name 为空"))
    try:
        validate_email(values["email"])
    except ValidationError:
        errors.append(_("email “%(email)s” 不是有效的地址") % {"email": values["email"]})
    # The columns' own limits, checked here: PostgreSQL refuses a longer value at the import
    # (a server error after a clean preview), where SQLite would have kept it.
    for key, limit in (("name", _NAME_MAX), ("email", _EMAIL_MAX), ("section", _SECTION_MAX)):
        if len(values[key]) > limit:
            errors.append(_("%(column)s 超过 %(n)d 个字符") % {"column": key, "n": limit})
    role = values["role"].lower()
    if role not in ROLES:
        errors.append(
            _("role “%(role)s” 须为 %(roles)s 之一")
            % {"role": values["role"], "roles": ", ".join(ROLES)}
        )
    if errors:
        return None, errors
    return RosterRow(line, sid, values["name"], values["email"], role, values["section"]), []


def roster_parse(text: str) -> list[RosterRow]:
    """Parse and validate a whole roster; raise RosterError listing every bad line."""
    reader = csv_dict_reader(text)
    header = [name.strip() for name in (reader.fieldnames or [])]
    missing = [col for col in ROSTER_COLUMNS if col not in header]
    if missing:
        raise RosterError(
            [
                (
                    1,
                    _("表头缺少列 %(missing)s；应为 %(expected)s")
                    % {"missing": ", ".join(missing), "expected": ",".join(ROSTER_COLUMNS)},
                )
            ]
        )
    reader.fieldnames = header
    rows: list[RosterRow] = []
    errors: list[tuple[int, str]] = []
    seen: dict[str, int] = {}
    for index, raw in enumerate(reader, start=2):
        if index - 1 > _MAX_ROSTER_ROWS:
            errors.append((index, _("超过 %(max)d 行") % {"max": _MAX_ROSTER_ROWS}))
            break
        if not any((value or "").strip() for key, value in raw.items() if key is not None):
            continue  # blank line
        row, row_errors = _parse_row(index, raw)
        errors.extend((index, reason) for reason in row_errors)
        if row is None:
            continue
        if row.student_id in seen:
            errors.append(
                (
                    index,
                    _("student_id %(sid)s 已在第 %(line)d 行出现")
                    % {"sid": row.student_id, "line": seen[row.student_id]},
                )
            )
            continue
        seen[row.student_id] = index
        rows.append(row)
    if errors:
        raise RosterError(errors)
    if not rows:
        raise RosterError([(1, _("文件中没有数据行"))])
    return rows


def _apply_role(user: AbstractBaseUser, role: str) -> None:
    groups = {name: Group.objects.get(name=name) for name in ROLES}
    user.groups.remove(*[groups[name] for name in ROLES if name != role])
    user.groups.add(groups[role])
    # A superuser keeps Django-admin access whatever course role a roster gives them: dropping
    # is_staff would lock the site's administrator out of /admin/.
    user.is_staff = user.is_superuser or role in (TA, INSTRUCTOR)
    role_cache_clear(user)


def _upsert(row: RosterRow) -> str:
    user = User.objects.filter(username=row.student_id).first()
    status = "updated"
    if user is None:
        user = User(username=row.student_id)
        user.set_unusable_password()  # people set a password through the reset flow
        status = "created"
    before = (
        user.email,
        user.first_name,
        user.is_staff,
        sorted(user.groups.values_list("name", flat=True)) if user.pk else [],
    )
    user.email, user.first_name = row.email, row.name
    user.save()
    _apply_role(user, row.role)
    user.save(update_fields=["is_staff"])
    profile, _ = Profile.objects.get_or_create(
        user=user, defaults={"student_id": row.student_id, "display_name": row.name}
    )
    profile_before = (profile.display_name, profile.section)
    profile.display_name, profile.section = row.name, row.section
    profile.save()
    after = (user.email, user.first_name, user.is_staff, [row.role])
    if status == "updated" and before == after and profile_before == (row.name, row.section):
        return "unchanged"
    return status


@transaction.atomic
def roster_import(
    *, text: str, by: AbstractBaseUser | None = None, demotions_confirmed: bool = False
) -> RosterResult:
    """Import a roster atomically: any bad row means nothing is written. Re-running updates rows.

    A row that lowers a staff role (selectors.roster_demotions) needs `demotions_confirmed`; one
    that lowers the importer's own (`by`) or leaves no instructor is refused whatever the flag.
    """
    rows = roster_parse(text)
    demotions = selectors.roster_demotions(rows)
    refusals = selectors.roster_demotion_refusals(rows, demotions, by=by)
    if refusals:
        raise RosterError(refusals)
    if demotions and not demotions_confirmed:
        raise RosterDemotionUnconfirmed(
            [(d.line, _("需要确认降级（%(change)s）") % {"change": d.label}) for d in demotions]
        )
    roles_sync()
    counts = {"created": 0, "updated": 0, "unchanged": 0}
    for row in rows:
        counts[_upsert(row)] += 1
    pending = User.objects.filter(
        username__in=[row.student_id for row in rows], password__startswith="!"
    )  # "!" starts every unusable password (django.contrib.auth.hashers.UNUSABLE_PASSWORD_PREFIX)
    return RosterResult(**counts, pending_ids=tuple(pending.values_list("pk", flat=True)))


def password_set_url(user: AbstractBaseUser) -> str:
    """An absolute one-time link to set the user's password (Django's reset-token flow)."""
    path = reverse(
        "accounts:password_reset_confirm",
        kwargs={
            "uidb64": urlsafe_base64_encode(force_bytes(user.pk)),
            "token": default_token_generator.make_token(user),
        },
    )
    return settings.PDC_SITE_URL.rstrip("/") + path


RESET_WINDOW_S = 3600  # s: the password-reset limits are per hour


def password_reset_throttled(*, email: str, client: str | None) -> bool:
    """Count one password-reset request; True once the address or the client has asked more
    often this hour than settings allow (PDC_RESET_PER_ADDRESS/CLIENT_PER_HOUR).

    Counted whether or not an account has the address, so being throttled says nothing about it.
    The address is kept in the cache only as a hash.
    """
    address = hashlib.sha256(email.strip().casefold().encode()).hexdigest()
    per_address = throttle_hit(f"reset-address:{address}", window_s=RESET_WINDOW_S)
    per_client = throttle_hit(f"reset-client:{client or 'unknown'}", window_s=RESET_WINDOW_S)
    return (
        per_address > settings.PDC_RESET_PER_ADDRESS_PER_HOUR
        or per_client > settings.PDC_RESET_PER_CLIENT_PER_HOUR
    )


def roster_invite(user: AbstractBaseUser) -> bool:
    """E-mail the user a set-your-password link; False (nothing sent) when there is no address.

    The link is a password-reset token: it expires after PASSWORD_RESET_TIMEOUT and stops working
    once any password is set, so a forwarded or repeated invitation cannot be replayed. It does
    not count the per-user limit: roster_invite_many, which every roster path uses, does.
    """
    if not _invitable(user):
        return False
    context = {
        "user": user,
        "url": password_set_url(user),
        "course": _(settings.PDC_COURSE_NAME),  # as the site's footer names it
        "days": settings.PASSWORD_RESET_TIMEOUT // 86400,
    }
    subject = render_to_string("accounts/email/invite_subject.txt", context).strip()
    body = render_to_string("accounts/email/invite_body.txt", context)
    send_mail(subject, body, None, [user.email])
    Profile.objects.filter(user=user).update(invited_at=timezone.now())
    return True


# Invitations to one person within a window, however sent (roster buttons, an import with
# invitations ticked): enough to resend after a lost or expired mail, few enough that a staff member
# cannot flood someone's inbox (or the mail server's reputation) by clicking on. A mail the server
# refused is not counted: it reached no inbox, and the page says to send it again later.
INVITE_WINDOW_S = 24 * 3600  # s: the invitation limit is per day
INVITES_PER_USER_PER_WINDOW = 3  # e-mails to one user per INVITE_WINDOW_S


def _invitable(user: AbstractBaseUser) -> bool:
    return bool(user.email) and user.is_active


def _invite_throttled(user: AbstractBaseUser) -> bool:
    """Count one invitation to the user; True once they have had their allowance this window."""
    hits = throttle_hit(_invite_key(user), window_s=INVITE_WINDOW_S)
    if hits > INVITES_PER_USER_PER_WINDOW:
        throttle_refund(_invite_key(user))  # not sent: a refusal never extends the count
        return True
    return False


def _invite_key(user: AbstractBaseUser) -> str:
    return f"invite-user:{user.pk}"


@dataclass(frozen=True)
class InviteResult:
    sent: int
    skipped: int  # no e-mail address, or inactive
    failed: tuple[str, ...]  # usernames whose mail the server refused; re-run to retry
    throttled: tuple[str, ...]  # usernames already sent INVITES_PER_USER_PER_WINDOW; not sent now


def _invite_one(user: AbstractBaseUser) -> str:
    """Invite one user; the outcome is one of InviteResult's fields."""
    if not _invitable(user):
        return "skipped"
    if _invite_throttled(user):
        return "throttled"
    try:
        roster_invite(user)
    except (smtplib.SMTPException, OSError):
        log.exception("invitation to %s failed", user.username)
        # Nothing reached the inbox, and the page says to send again later: not counted.
        throttle_refund(_invite_key(user))
        return "failed"
    return "sent"


def roster_invite_many(*, user_ids: tuple[int, ...] | list[int]) -> InviteResult:
    """Invite each user; one refused address, a mail-server hiccup or a user past the resend
    limit never stops the others."""
    outcomes: dict[str, list[str]] = {"sent": [], "skipped": [], "failed": [], "throttled": []}
    for user in User.objects.filter(pk__in=user_ids).order_by("username"):
        outcomes[_invite_one(user)].append(user.username)
    return InviteResult(
        sent=len(outcomes["sent"]),
        skipped=len(outcomes["skipped"]),
        failed=tuple(outcomes["failed"]),
        throttled=tuple(outcomes["throttled"]),
    )


def user_create_with_role(
    *, username: str, password: str, role: str, name: str = "", email: str = ""
) -> AbstractBaseUser:
    """Create (or reset) a user with one role; used for demo users and tests."""
    roles_sync()
    user, _ = User.objects.get_or_create(username=username)
    user.set_password(password)
    user.first_name = name or username
    user.email = email or f"{username}@example.edu"
    user.save()
    _apply_role(user, role)
    user.save(update_fields=["is_staff"])
    Profile.objects.get_or_create(
        user=user, defaults={"student_id": username, "display_name": user.first_name}
    )
    return user


DEMO_USERS = (
    ("student1", STUDENT),
    ("student2", STUDENT),
    ("ta1", TA),
    ("instructor1", INSTRUCTOR),
)


def api_tokens_revoke_all(*, user: AbstractBaseUser) -> int:
    """Revoke every live token of the user (after a password change or reset); returns how many."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def login_lock_lift(*, user: AbstractBaseUser) -> int:
    """Forget the user's wrong-password attempts, from every address; returns how many rows went."""
    return axes_reset(username=user.get_username())


def api_token_revoke(*, user: AbstractBaseUser, token_id: int) -> bool:
    """Revoke one of the user's own tokens; False when it is not theirs or already revoked."""
    return bool(
        ApiToken.objects.filter(user=user, pk=token_id, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
    )


def api_token_create(*, user: AbstractBaseUser, label: str = "cli") -> str:
    """Revoke the user's old tokens and return a new raw token (shown to the user once)."""
    now = timezone.now()
    ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(revoked_at=now)
    raw = ApiToken.new_raw()
    ApiToken.objects.create(user=user, key_hash=ApiToken.hash(raw), label=label)
    return raw


class ProfileError(ValueError):
    pass


class ProfileThrottled(ProfileError):
    """Too many nickname attempts in the last hour (settings.PDC_PSEUDONYM_ATTEMPTS_PER_HOUR)."""


PSEUDONYM_MAX = 40  # characters: the Profile.pseudonym column


def profile_pseudonym_set(*, user: AbstractBaseUser, pseudonym: str) -> Profile:
    """Set (or clear, with "" or only spaces) the leaderboard nickname; two students cannot share
    one (letter case aside): checked here for a clear message, held by Profile's unique
    constraint. Nor may it be another account's username (Profile.clean).

    Attempts are limited per student: each answer says whether a name is in use, and usernames
    are student IDs, so unlimited tries would let one walk a list of IDs."""
    from django.utils.translation import gettext

    # NFKC, the form Django keeps usernames in: "ｓｔｕｄｅｎｔ＿ａ" (full-width, as a Chinese input
    # method types it) is "student_a", and Profile.clean and the unique constraint compare it so.
    pseudonym = " ".join(unicodedata.normalize("NFKC", pseudonym or "").split())
    # Clearing tells nothing about names, and leaving the leaderboard must always work.
    if pseudonym and throttle_hit(f"pseudonym:{user.pk}", window_s=3600) > (  # s: one hour
        settings.PDC_PSEUDONYM_ATTEMPTS_PER_HOUR
    ):
        raise ProfileThrottled(gettext("修改昵称的次数过多，请一小时后再试。"))
    if pseudonym_has_bad_character(pseudonym):  # before the queries below (a NUL fails them)
        raise ProfileError(str(PSEUDONYM_BAD_CHARACTER))
    if len(pseudonym) > PSEUDONYM_MAX:
        raise ProfileError(gettext("昵称最多 %(n)d 个字符。") % {"n": PSEUDONYM_MAX})
    profile = Profile.objects.filter(user=user).first()
    if profile is None:
        raise ProfileError(gettext("你的账户没有学生档案，不能设置昵称。"))
    taken = (
        Profile.objects.filter(pseudonym__iexact=pseudonym).exclude(pk=profile.pk).exists()
        if pseudonym
        else False
    )
    if taken:
        raise ProfileError(str(PSEUDONYM_TAKEN))
    profile.pseudonym = pseudonym
    try:
        profile.clean()  # the model's rules, which the admin's form applies too
    except ValidationError as exc:
        raise ProfileError(" ".join(exc.messages)) from None
    try:
        with transaction.atomic():
            profile.save(update_fields=["pseudonym"])
    except IntegrityError:  # another student took it between the check and the save
        raise ProfileError(str(PSEUDONYM_TAKEN)) from None
    return profile
