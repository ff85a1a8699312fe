from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.utils.translation import gettext as _

from accounts.models import ApiToken, Profile
from accounts.roles import INSTRUCTOR, ROLE_LABELS, STUDENT, TA, role_of


def profile_context(*, user: AbstractBaseUser) -> dict:
    return {
        "profile": Profile.objects.filter(user=user).first(),
        "role": ROLE_LABELS.get(role_of(user) or "", ""),
        "active_tokens": ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by(
            "-created_at"
        ),
    }


# --- roster (staff) -------------------------------------------------------------------------------


@dataclass(frozen=True)
class RosterPreviewRow:
    row: object  # accounts.services.RosterRow
    status: str  # "new", "changed", "unchanged" or "demoted"
    status_label: str


# A role's standing: a row that lowers it takes staff pages away (instructor -> TA or student,
# TA -> student), which the preview names and the import asks to be confirmed.
_ROLE_RANK = {STUDENT: 0, TA: 1, INSTRUCTOR: 2}


@dataclass(frozen=True)
class RosterDemotion:
    line: int
    student_id: str
    before: str  # role code
    after: str

    @property
    def label(self) -> str:
        return _("降级：%(before)s → %(after)s") % {
            "before": ROLE_LABELS[self.before],
            "after": ROLE_LABELS[self.after],
        }


def _roster_users(rows: list) -> dict[str, AbstractBaseUser]:
    from django.contrib.auth import get_user_model

    return {
        u.username: u
        for u in get_user_model()
        .objects.filter(username__in=[r.student_id for r in rows])
        .select_related("profile")
        .prefetch_related("groups")
    }


def _demotion(row, user: AbstractBaseUser | None) -> RosterDemotion | None:
    before = role_of(user) if user is not None else None
    if before in (TA, INSTRUCTOR) and _ROLE_RANK[row.role] < _ROLE_RANK[before]:
        return RosterDemotion(row.line, row.student_id, before, row.role)
    return None


def roster_demotions(rows: list) -> list[RosterDemotion]:
    """The rows that would lower a staff member's role (in file order)."""
    users = _roster_users(rows)
    found = (_demotion(row, users.get(row.student_id)) for row in rows)
    return [d for d in found if d is not None]


def roster_demotion_refusals(
    rows: list, demotions: list[RosterDemotion], *, by: AbstractBaseUser | None
) -> list[tuple[int, str]]:
    """(line, reason) for the demotions no confirmation allows: the uploader's own (they would
    lock themself out mid-task), and any that leaves the course without an active instructor
    (nobody left could import the roster again to undo it)."""
    from django.contrib.auth import get_user_model

    refusals = [
        (d.line, _("不能降低你自己的角色（%(change)s）。") % {"change": d.label})
        for d in demotions
        if by is not None and d.student_id == by.get_username()
    ]
    if any(d.before == INSTRUCTOR for d in demotions):
        file_ids = [r.student_id for r in rows]
        kept = any(r.role == INSTRUCTOR for r in rows) or (
            get_user_model()
            .objects.filter(groups__name=INSTRUCTOR, is_active=True)
            .exclude(username__in=file_ids)
            .exists()
        )
        if not kept:
            refusals += [
                (
                    d.line,
                    _("导入后课程将没有教师（%(change)s）；至少保留一位教师。")
                    % {"change": d.label},
                )
                for d in demotions
                if d.before == INSTRUCTOR
            ]
    return sorted(set(refusals))


def roster_preview(rows: list) -> list[RosterPreviewRow]:
    """What importing these validated rows would do to each person (nothing is written)."""
    users = _roster_users(rows)
    labels = {"new": _("新增"), "changed": _("更新"), "unchanged": _("不变")}
    out = []
    for row in rows:
        user = users.get(row.student_id)
        demotion = _demotion(row, user)
        if demotion is not None:
            out.append(RosterPreviewRow(row, "demoted", demotion.label))
            continue
        if user is None:
            status = "new"
        else:
            profile = getattr(user, "profile", None)
            now = (user.email, user.first_name, role_of(user), profile.section if profile else None)
            status = (
                "unchanged" if now == (row.email, row.name, row.role, row.section) else "changed"
            )
        out.append(RosterPreviewRow(row, status, labels[status]))
    return out


def roster_people(*, section: str = "") -> list[AbstractBaseUser]:
    from django.contrib.auth import get_user_model

    people = get_user_model().objects.filter(profile__isnull=False).select_related("profile")
    if section:
        people = people.filter(profile__section=section)
    return list(
        people.prefetch_related("groups").order_by("profile__section", "profile__student_id")
    )


def _invitable():
    """Roster people who can be invited: active, with no password set yet."""
    from django.contrib.auth import get_user_model

    return get_user_model().objects.filter(
        profile__isnull=False, is_active=True, password__startswith="!"
    )  # "!" starts every unusable password (django.contrib.auth.hashers.UNUSABLE_PASSWORD_PREFIX)


def roster_not_invited_ids() -> list[int]:
    """Everyone on the roster who has no password and was never sent an invitation."""
    return list(_invitable().filter(profile__invited_at__isnull=True).values_list("pk", flat=True))


def roster_invitable_ids(*, user_id: int) -> list[int]:
    """The one person, if an invitation (again) may go to them; else nobody."""
    return list(_invitable().filter(pk=user_id).values_list("pk", flat=True))


def roster_sections() -> list[str]:
    values = Profile.objects.exclude(section="").values_list("section", flat=True)
    return sorted(set(values))
